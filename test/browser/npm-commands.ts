import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Node-side help for the Chromium install tests, called through vitest's browser commands: the
 * page cannot run the npm CLI, and the lock it writes is what an install in the browser must match.
 */
export const npmCommands = {
  /** The package-lock.json the real npm CLI resolves for `project` against `registry` (the lock only, no tarballs). */
  npmCliLock: async (_ctx: unknown, registry: string, project: unknown): Promise<unknown> => {
    const dir = await mkdtemp(join(tmpdir(), 'sandpit-npm-cli-lock-'));
    try {
      await writeFile(join(dir, 'package.json'), JSON.stringify(project, null, 2));
      await run(
        'npm',
        [
          'install',
          '--package-lock-only',
          '--registry',
          registry,
          '--cache',
          join(dir, '.cache'),
          '--userconfig',
          join(dir, '.npmrc-user'),
          '--omit-lockfile-registry-resolved=false',
          '--ignore-scripts',
          '--no-audit',
          '--no-fund',
          '--no-update-notifier',
        ],
        { cwd: dir },
      );
      return JSON.parse(await readFile(join(dir, 'package-lock.json'), 'utf8'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
