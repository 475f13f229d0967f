import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/index.js';
import type { Workspace } from '../../src/index.js';

const git = (gitdir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitdir}`, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Every file under the store's objects folder (loose objects and packs), by path and size; spares left out. */
function objectFiles(gitdir: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('tmp_obj_')) continue;
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else out.set(path.slice(gitdir.length), st.size);
    }
  };
  walk(join(gitdir, 'objects'));
  return out;
}

async function write(ws: Workspace, path: string, content: string): Promise<void> {
  const env = await ws.call('write_file', { path, content });
  if (!env.ok) throw new Error(JSON.stringify(env.error));
}

it('dropping a fork frees the objects only it reached, loose and packed, and keeps what others reach', async () => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-fork-drop-'));
  writeFileSync(join(root, 'a.txt'), 'one\n');
  const gitdir = join(root, '.sandpit', 'git');
  const ws = openNodeWorkspace(root);
  await write(ws, 'b.txt', 'two\n');
  const sibling = await ws.fork({ name: 'sibling' });
  await write(sibling, 'sib.txt', 'kept by the sibling\n');
  const before = objectFiles(gitdir);

  const fork = await ws.fork({ name: 'doomed' });
  // one change per file: loose objects
  for (let i = 0; i < 50; i++) await write(fork, `out/f${i}.txt`, `fork file ${i}\n`);
  // one change of many files: a pack
  const imported = await fork.importFiles(
    Array.from({ length: 40 }, (_, i) => ({ path: `big/g${i}.txt`, bytes: new TextEncoder().encode(`packed ${i}\n`) })),
  );
  expect(imported.ok).toBe(true);
  // content the fork wrote first and the parent and the sibling write later: theirs, so it stays
  await write(fork, 'shared.txt', 'same bytes on both sides\n');
  const nested = await fork.fork({ name: 'inner' });
  await write(nested, 'inner.txt', 'only in the fork of the fork\n');
  expect(objectFiles(gitdir).size).toBeGreaterThan(before.size + 50);
  await write(ws, 'shared.txt', 'same bytes on both sides\n');
  const parentGrew = objectFiles(gitdir);

  const dropped = await ws.dropFork('doomed');
  expect(dropped).toMatchObject({ ok: true, result: { dropped: 'doomed' } });
  expect(dropped.ok && dropped.result.freed_objects).toBeGreaterThan(90);
  const after = objectFiles(gitdir);
  // what is left is what was there before the fork, plus the parent's own last change
  const added = [...after.keys()].filter((p) => !before.has(p));
  expect([...before.keys()].filter((p) => !after.has(p))).toEqual([]);
  for (const p of added) expect(parentGrew.has(p)).toBe(true);
  expect(added.length).toBeLessThanOrEqual(4);
  expect(readdirSync(join(gitdir, 'refs', 'heads', 'forks'))).toEqual([expect.stringMatching(/^sibling-/)]);

  // the parent's history and the sibling read back, and the real git finds nothing missing
  const snaps = await ws.call('list_snapshots', {});
  expect(snaps.ok && snaps.result.snapshots.length).toBeGreaterThanOrEqual(2);
  const oldest = snaps.ok ? snaps.result.snapshots.at(-1)!.id : '';
  expect((await ws.call('diff_snapshots', { from: oldest })).ok).toBe(true);
  expect(git(gitdir, 'show', 'main:shared.txt')).toBe('same bytes on both sides\n');
  await write(sibling, 'shared.txt', 'same bytes on both sides\n');
  const fsck = git(gitdir, 'fsck', '--full', '--no-dangling');
  expect(fsck).not.toMatch(/missing|broken|error/i);
  await ws.close();

  const again = openNodeWorkspace(root);
  expect((await again.forks()).map((f) => f.name)).toEqual(['sibling']);
  const reopened = await again.openFork('sibling');
  const read = await reopened.call('read_file', { path: 'sib.txt' });
  expect(read.ok && read.result.content).toBe('kept by the sibling\n');
  await expect(again.openFork('doomed')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  await again.close();
});

it('a drop with nothing of its own frees nothing', async () => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-fork-drop-'));
  writeFileSync(join(root, 'a.txt'), 'one\n');
  const ws = openNodeWorkspace(root);
  await write(ws, 'b.txt', 'two\n');
  await ws.fork({ name: 'idle' });
  const before = objectFiles(join(root, '.sandpit', 'git'));
  const dropped = await ws.dropFork('idle');
  expect(dropped).toMatchObject({ ok: true, result: { freed_objects: 0 } });
  expect(objectFiles(join(root, '.sandpit', 'git'))).toEqual(before);
  await ws.close();
});
