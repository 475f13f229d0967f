import { closeSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { isCredential } from './env.js';

/**
 * The CLI's credentials, kept in memory. The process that runs the tools was started without
 * them, so a program reading `/proc/<its parent>/environ` finds none.
 */
const kept = new Map<string, string>();

// Set only in the relaunched CLI: which inherited descriptor carries the secrets it needs.
const SECRETS_FD = 'SANDPIT_SECRETS_FD';
// The parent never writes to this one: it closes when the parent dies, however it dies.
const LIFELINE_FD = 4;

// The credentials a CLI command reads: the git token and the model API keys.
const NEEDED = ['SANDPIT_GIT_TOKEN', 'SANDPIT_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY'];

/** A credential the CLI was started with: from memory after the relaunch, else from the environment. */
export function cliSecret(name: string): string | undefined {
  return kept.get(name) ?? process.env[name];
}

/**
 * Start the CLI again without the credentials in its environment, passing the few it needs
 * through an inherited pipe, and stay as a thin parent that relays signals and the exit status.
 * Returns null when this process should do the work itself: it is the relaunched one, or there
 * was nothing to withhold. Without the OS sandbox this parent still holds the full environment:
 * only the process that runs programs is clean (see the README's Boundaries).
 */
export async function relaunchWithoutSecrets(argv: readonly string[]): Promise<number | null> {
  const fd = process.env[SECRETS_FD];
  if (fd !== undefined) {
    delete process.env[SECRETS_FD];
    takeSecrets(Number(fd));
    await stopWithParent();
    return null;
  }
  if (process.platform === 'win32' || process.argv[1] === undefined) return null;
  const env: Record<string, string> = {};
  const secrets: Record<string, string> = {};
  const named = tokenEnvNames(argv);
  const needed = new Set([...NEEDED, ...named]);
  let withheld = 0;
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (!isCredential(name, value) && !named.includes(name)) env[name] = value;
    else {
      withheld++;
      if (needed.has(name)) secrets[name] = value;
    }
  }
  if (withheld === 0) return null;
  env[SECRETS_FD] = '3';
  // Loaded only to relaunch: child_process and tty are a few ms of every start of a CLI that does not.
  const [{ spawn }, { isatty }] = await Promise.all([import('node:child_process'), import('node:tty')]);
  const child = spawn(process.execPath, [...process.execArgv, process.argv[1], ...argv], {
    env,
    stdio: ['inherit', 'inherit', 'inherit', 'pipe', 'pipe'],
  });
  const lifeline = child.stdio[LIFELINE_FD] as Socket;
  lifeline.on('error', () => {});
  const pipe = child.stdio[3] as NodeJS.WritableStream;
  pipe.on('error', () => {});
  pipe.end(JSON.stringify(secrets));
  // A Ctrl-C at a terminal reaches both processes already; anything else sent here is passed on.
  const interactive = isatty(0) || isatty(1) || isatty(2);
  const relay = (signal: NodeJS.Signals) => () => {
    if (signal !== 'SIGINT' || !interactive) child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((s) => [s, relay(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code, signal) => {
      lifeline.destroy();
      for (const [s, h] of handlers) process.off(s, h);
      if (signal) process.kill(process.pid, signal);
      resolve(code ?? 1);
    });
  });
}

/**
 * A parent killed with SIGKILL cannot pass the signal on: without this, an `mcp --http` server
 * holding the credentials would stay up, orphaned, on its port. The lifeline ends when the parent
 * is gone, and this process then stops as if it had been sent SIGTERM.
 */
async function stopWithParent(): Promise<void> {
  const { Socket } = await import('node:net');
  let lifeline: Socket;
  try {
    lifeline = new Socket({ fd: LIFELINE_FD, readable: true, writable: false });
  } catch {
    return; // started by something other than the relaunching parent
  }
  const stop = () => process.kill(process.pid, 'SIGTERM');
  lifeline.on('error', stop);
  lifeline.on('end', stop);
  lifeline.resume();
  // Waiting on the parent must not keep a finished command alive.
  lifeline.unref();
}

function takeSecrets(fd: number): void {
  try {
    const secrets = JSON.parse(readFileSync(fd, 'utf8')) as Record<string, string>;
    for (const [name, value] of Object.entries(secrets)) kept.set(name, value);
  } finally {
    // Programs started later must not inherit the pipe.
    closeSync(fd);
  }
}

// `--token-env NAME` (git commands) and `--auth-token-env NAME` (mcp --http) each name one more variable the command needs.
const TOKEN_OPTIONS = ['--token-env', '--auth-token-env'];

function tokenEnvNames(argv: readonly string[]): string[] {
  const names: string[] = [];
  // git's --token-env and mcp's --auth-token-env both name a variable the command itself reads.
  argv.forEach((arg, i) => {
    for (const option of TOKEN_OPTIONS) {
      if (arg === option && argv[i + 1]) names.push(argv[i + 1]!);
      else if (arg.startsWith(`${option}=`)) names.push(arg.slice(option.length + 1));
    }
  });
  return names;
}
