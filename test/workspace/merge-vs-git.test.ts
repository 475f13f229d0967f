import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace } from '../../src/index.js';
import { leanSpawnSync } from '../support/lean-spawn.js';

type Files = Record<string, string | Uint8Array>;
const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');
const BIN = new Uint8Array([0, 1, 2, 3, 0, 255]);

// Whole-tree cases: [name, base, ours (the workspace), theirs (the fork)], merged by Sandpit and by
// real `git merge`, which must agree on which paths conflict and, when clean, on every file.
const CASES: Array<[string, Files, Files, Files]> = [
  [
    'edits to different files',
    { 'a.txt': 'a\n', 'b.txt': 'b\n' },
    { 'a.txt': 'A\n', 'b.txt': 'b\n' },
    { 'a.txt': 'a\n', 'b.txt': 'B\n' },
  ],
  [
    'rename in the fork, edit in the workspace',
    { 'r.txt': lines(12) },
    { 'r.txt': lines(12).replace('line 2\n', 'ours 2\n') },
    { 'moved/r.txt': lines(12).replace('line 11\n', 'theirs 11\n') },
  ],
  [
    'rename in the workspace, edit in the fork',
    { 'r.txt': lines(12) },
    { 'r2.txt': lines(12) },
    { 'r.txt': lines(12).replace('line 5\n', 'theirs 5\n') },
  ],
  ['delete in the fork', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { 'a.txt': 'a\n' }],
  ['delete against edit', { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { 'a.txt': 'a\n', 'b.txt': 'B\n' }, { 'a.txt': 'a\n' }],
  ['binary changed on one side', { 'x.bin': BIN }, { 'x.bin': BIN }, { 'x.bin': new Uint8Array([0, 9, 9]) }],
  [
    'binary changed on both sides',
    { 'x.bin': BIN },
    { 'x.bin': new Uint8Array([0, 1]) },
    { 'x.bin': new Uint8Array([0, 2]) },
  ],
  [
    'binary changed the same on both sides',
    { 'x.bin': BIN },
    { 'x.bin': new Uint8Array([0, 7]) },
    { 'x.bin': new Uint8Array([0, 7]) },
  ],
  [
    'both add the same file',
    { 'a.txt': 'a\n' },
    { 'a.txt': 'a\n', 'n.txt': 'new\n' },
    { 'a.txt': 'a\n', 'n.txt': 'new\n' },
  ],
  [
    'both add different files at one path',
    { 'a.txt': 'a\n' },
    { 'a.txt': 'a\n', 'n.txt': 'ours\n' },
    { 'a.txt': 'a\n', 'n.txt': 'theirs\n' },
  ],
  ['adjacent line edits', { 'a.txt': 'a\nb\nc\nd\n' }, { 'a.txt': 'a\nB\nc\nd\n' }, { 'a.txt': 'a\nb\nC\nd\n' }],
  [
    'CRLF file, edits far apart',
    { 'w.txt': lines(8).replaceAll('\n', '\r\n') },
    { 'w.txt': lines(8).replaceAll('\n', '\r\n').replace('line 1', 'ONE') },
    { 'w.txt': lines(8).replaceAll('\n', '\r\n').replace('line 8', 'EIGHT') },
  ],
  ['new folder in the fork', { 'a.txt': 'a\n' }, { 'a.txt': 'a\n' }, { 'a.txt': 'a\n', 'deep/er/n.txt': 'n\n' }],
];

const work = mkdtempSync(join(tmpdir(), 'merge-vs-git-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): number {
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@x',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@x',
  };
  // from a small process (test/support/lean-spawn.ts): this file runs git about 130 times
  const r = leanSpawnSync('git', args, { cwd, env });
  if (r.status === null) throw new Error(`git ${args[0]} did not finish`);
  return r.status;
}

function setFolder(dir: string, files: Files): void {
  for (const name of readdirSync(dir)) if (name !== '.git') rmSync(join(dir, name), { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

function folderFiles(dir: string, root = dir): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    if (name === '.git' || name === '.sandpit') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, folderFiles(path, root));
    else out[relative(root, path)] = [...readFileSync(path)].join(',');
  }
  return out;
}

function gitMerge(
  name: string,
  base: Files,
  ours: Files,
  theirs: Files,
): { conflicts: string[]; files: Record<string, string> } {
  const dir = join(work, name.replace(/\W+/g, '-'));
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  setFolder(dir, base);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'base');
  git(dir, 'checkout', '-qb', 'fork');
  setFolder(dir, theirs);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'theirs', '--allow-empty');
  git(dir, 'checkout', '-q', 'main');
  setFolder(dir, ours);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'ours', '--allow-empty');
  if (git(dir, 'merge', '-q', '--no-edit', 'fork') === 0) return { conflicts: [], files: folderFiles(dir) };
  const r = leanSpawnSync('git', ['diff', '--name-only', '--diff-filter=U'], { cwd: dir });
  return { conflicts: r.stdout.toString('utf8').split('\n').filter(Boolean).sort(), files: {} };
}

/** Make a workspace's files what `files` says, through its tools. */
async function become(ws: Workspace, now: Files, was: Files): Promise<void> {
  for (const rel of Object.keys(was))
    if (!(rel in now)) expect((await ws.call('delete_path', { path: rel })).ok).toBe(true);
  const changed = Object.entries(now).filter(([rel, c]) => !(rel in was) || String(was[rel]) !== String(c));
  const bytes = (c: string | Uint8Array) => (typeof c === 'string' ? new TextEncoder().encode(c) : c);
  if (changed.length) await ws.importFiles(changed.map(([path, c]) => ({ path, bytes: bytes(c) })));
}

describe('ws.merge against git merge', () => {
  it.each(CASES)('%s', async (name, base, ours, theirs) => {
    const expected = gitMerge(name, base, ours, theirs);
    const seed = Object.fromEntries(Object.entries(base).map(([rel, c]) => [`/ws/${rel}`, c]));
    const fs = createMemoryFs(seed);
    const ws = createWorkspace({ fs, root: '/ws' });
    const fork = await ws.fork({ name: 'f' });
    await become(fork, theirs, base);
    await become(ws, ours, base);
    const merged = await ws.merge(fork);
    if (expected.conflicts.length) {
      expect(merged.ok).toBe(false);
      const problems = merged.ok ? [] : (merged.error.problems ?? []);
      // git names a renamed file's conflict at either name; Sandpit at the one it lists
      expect(problems.length).toBe(expected.conflicts.length);
    } else {
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      const out: Record<string, string> = {};
      const walk = async (rel: string) => {
        for (const n of await fs.readdir(rel ? `/ws/${rel}` : '/ws')) {
          const child = rel ? `${rel}/${n}` : n;
          if (child === '.sandpit') continue;
          if ((await fs.lstat(`/ws/${child}`)).type === 'dir') await walk(child);
          else out[child] = [...(await fs.readFile(`/ws/${child}`))].join(',');
        }
      };
      await walk('');
      expect(out).toEqual(expected.files);
    }
    await ws.close();
  });
});
