#!/usr/bin/env node
import { relaunchWithoutSecrets } from './process/sandbox-relaunch.js';

// Credentials stay out of the environment of the process that runs programs (it is what their /proc/$PPID shows).
const relaunched = await relaunchWithoutSecrets(process.argv.slice(2));

// A reader that closed the pipe early (`sandpit replay x | head`) is not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// The commands load only once this process is the one to run them (not the relaunching parent).
process.exitCode = relaunched ?? (await (await import('./cli/main.js')).main(process.argv.slice(2)));
