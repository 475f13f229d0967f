import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createNodeFs } from '../../src/fs/node.js';
import { createShellRunner } from '../../src/process/shell-runner.js';

const gitEnv = {
  ...process.env,
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};
let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/**
 * `git status` hashes a file whose stat no longer matches the index (a copy, a touch, a checkout
 * by another tool) and then remembers that stat, as git does by rewriting its index. The shell
 * remembers it without writing `.git/index`, so a status is never a change in the review log,
 * and an edit after it is still seen.
 */
describe("the shell's git status and files whose stat moved", () => {
  it('reads them once, records no change, and still sees the next edit', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandpit-status-'));
    writeFileSync(join(dir, 'a.txt'), 'one\n');
    writeFileSync(join(dir, 'b.txt'), 'two\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv, stdio: 'pipe' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    // Same bytes, a time an hour back: the index's stat no longer matches, the content does.
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (const name of ['a.txt', 'b.txt']) utimesSync(join(dir, name), hourAgo, hourAgo);
    // The real node backend, counting which files are read (nothing else changed).
    const reads: string[] = [];
    const backend = createNodeFs({ root: dir });
    const fs = new Proxy(backend, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key === 'readFile')
          return (path: string, ...rest: unknown[]) => {
            reads.push(path.slice(dir.length));
            return (value as (...a: unknown[]) => unknown).call(target, path, ...rest);
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const ws = createWorkspace({ fs, root: dir, processRunner: createShellRunner(fs, dir), snapshots: false });
    const run = async (command: string) => {
      const r = await ws.call('run_command', { command });
      if (!r.ok) throw new Error(JSON.stringify(r));
      return r.result as { exit_code: number; stdout: string; change_id?: string };
    };
    const indexBefore = git('ls-files', '--debug').toString();
    const tracked = (list: string[]) => list.filter((p) => p === '/a.txt' || p === '/b.txt').sort();
    for (const expected of [['/a.txt', '/b.txt'], []]) {
      reads.length = 0;
      const status = await run('git status --porcelain');
      expect(status).toMatchObject({ exit_code: 0, stdout: '' });
      expect(status.change_id).toBeUndefined();
      expect(tracked(reads)).toEqual(expected);
    }
    expect(git('ls-files', '--debug').toString()).toBe(indexBefore);
    writeFileSync(join(dir, 'a.txt'), 'ONE\n');
    utimesSync(join(dir, 'a.txt'), hourAgo, new Date(Date.now() - 1_800_000));
    expect((await run('git status --porcelain')).stdout).toBe(' M a.txt\n');
    expect((await run('git diff --stat')).stdout).toContain('a.txt | 2 +-');
  });
});
