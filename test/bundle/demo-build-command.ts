import { fileURLToPath } from 'node:url';
import type { BuildCommand } from '../support/build-ahead.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** The demo's build into `outDir` with the real `build:web` script, as `npm start` builds it. */
export function demoBuildCommand(outDir: string): BuildCommand {
  // vitest sets NODE_ENV=test, which would give a development build; `npm start` runs with none.
  const env = { ...process.env };
  delete env.NODE_ENV;
  return {
    command: 'npm',
    args: ['run', 'build:web', '--', '--outDir', outDir, '--emptyOutDir'],
    options: { cwd: repoRoot, env },
  };
}
