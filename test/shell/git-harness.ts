import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryFs } from '../../src/fs/memory.js';
import { createNodeFs } from '../../src/fs/node.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';
import { leanSpawnSync } from '../support/lean-spawn.js';

/** Fixed people and moments, so both gits make the same hashes. */
export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '@1700000000 +0100',
  GIT_COMMITTER_NAME: 'Cy Committer',
  GIT_COMMITTER_EMAIL: 'cy@example.com',
  GIT_COMMITTER_DATE: '@1700000000 +0100',
};

export interface Outcome {
  stdout: string;
  stderr: string;
  exit: number;
}

/** Real bash and the real git CLI in a host folder, with no user or system config (started as lean-spawn.ts says). */
export function realGit(dir: string) {
  mkdirSync(dir, { recursive: true });
  return (line: string): Outcome => {
    const run = leanSpawnSync('/bin/bash', ['-c', line], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        LC_ALL: 'C',
        HOME: dir,
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        // the branch name the shell's git also starts with, said so git gives no hint about it
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'init.defaultBranch',
        GIT_CONFIG_VALUE_0: 'master',
        ...GIT_ENV,
      },
    });
    const stdout = run.stdout.toString('utf8');
    return { stdout: stdout.replaceAll(`${dir}/`, '/'), stderr: run.stderr.toString('utf8'), exit: run.status ?? -1 };
  };
}

/** The browser shell over a backend: the node one on a host folder (real git can read it after), or memory. */
export function shellGit(backend: { fs: WorkspaceFs; root: string }) {
  const { fs, root } = backend;
  const writer = new FileWriter(fs, new PathResolver(fs, root), new PathLocks(), new ChangeLog(), null);
  let cwd = '.';
  const run = async (line: string): Promise<Outcome> => {
    const r = await runShell({
      fs,
      root,
      command: line,
      cwd,
      env: { LC_ALL: 'C', ...GIT_ENV },
      timeoutMs: null,
      apply: (steps, options) => writer.apply(steps, { allOrNothing: false, ...options }),
    });
    return { stdout: r.stdout, stderr: r.stderr, exit: r.exit_code };
  };
  return Object.assign(run, { cd: (to: string) => void (cwd = to), writer });
}

export const nodeBackend = (dir: string) => {
  mkdirSync(dir, { recursive: true });
  return { fs: createNodeFs({ root: dir }), root: dir };
};
export const memoryBackend = () => ({ fs: createMemoryFs({}), root: '/' });

/** The real git CLI on a folder the shell wrote: what it says, for reading the repository back. */
export function gitIn(dir: string, ...args: string[]): Outcome {
  const run = leanSpawnSync('git', args, {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
    },
  });
  return { stdout: run.stdout.toString('utf8'), stderr: run.stderr.toString('utf8'), exit: run.status ?? -1 };
}

export const hostPath = join;
