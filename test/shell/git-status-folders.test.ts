import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createNodeFs } from '../../src/fs/node.js';
import { createShellRunner } from '../../src/process/shell-runner.js';

const gitEnv = {
  ...process.env,
  LC_ALL: 'C',
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
 * `git status` finds untracked names by the first pass's per-folder counts: a folder whose listing
 * is only its tracked files and folders is not looked through name by name. Folders whose files
 * come in more than one run of the sorted index (`a/b`, `a/c/d`, `a/e`), a skip-worktree file, a
 * `.gitignore` below the top, a tracked file gone or replaced by a folder: the shell answers as the
 * real git does, and again after the index moved (the staged pairs it keeps are then recomputed).
 */
describe("the shell's git status by folder counts", () => {
  it('answers as git does, before and after the index changes', async () => {
    dir = mkdtempSync(join(tmpdir(), 'sandpit-status-folders-'));
    const write = (path: string, text = `${path}\n`) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    for (const p of ['a/b.txt', 'a/c/d.txt', 'a/e.txt', 'a/f/g/h.txt', 'k/l.txt', 'k/m.txt', 'top.txt', 'q/r.txt'])
      write(p);
    write('a/f/.gitignore', 'ignored.txt\n');
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: gitEnv, stdio: 'pipe' }).toString();
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'base');
    git('update-index', '--skip-worktree', 'k/m.txt');
    unlinkSync(join(dir, 'k/m.txt'));
    write('a/new.txt');
    write('a/c/newdir/x.txt');
    write('a/f/ignored.txt');
    write('a/f/g/seen.txt');
    unlinkSync(join(dir, 'q/r.txt'));
    write('q/r.txt/inside.txt');
    write('fresh/one.txt');
    write('top.txt', 'changed\n');

    const fs = createNodeFs({ root: dir });
    const ws = createWorkspace({ fs, root: dir, processRunner: createShellRunner(fs, dir), snapshots: false });
    const shell = async (command: string) => {
      const r = await ws.call('run_command', { command, env: { LC_ALL: 'C' } });
      if (!r.ok) throw new Error(JSON.stringify(r));
      return (r.result as { stdout: string }).stdout;
    };
    const same = async (line: string) => expect(await shell(line)).toBe(git(...line.split(' ').slice(1)));
    for (const line of ['git status', 'git status --porcelain', 'git status -s -uno', 'git status']) await same(line);
    await shell('git add a/new.txt top.txt');
    for (const line of ['git status --porcelain', 'git status']) await same(line);
  });
});
