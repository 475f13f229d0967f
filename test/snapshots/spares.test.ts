import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace } from '../../src/index.js';
import { createNodeFs, openNodeWorkspace } from '../../src/node/index.js';
import { keepSpares } from '../../src/node/open.js';

const git = (gitdir: string, ...args: string[]) =>
  execFileSync('git', [`--git-dir=${gitdir}`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function ok(ws: Workspace, tool: string, args: unknown) {
  const env = await ws.call(tool, args);
  if (!env.ok) throw new Error(JSON.stringify(env.error));
  return env.result as Record<string, any>;
}

const objectsOf = (root: string) => join(root, '.sandpit', 'git', 'objects');
const spareNames = (root: string) => readdirSync(objectsOf(root)).filter((n) => n.startsWith('tmp_obj_sandpit_'));
const spareFiles = (root: string) => spareNames(root).filter((n) => statSync(join(objectsOf(root), n)).isFile());
const spareDirs = (root: string) => spareNames(root).filter((n) => statSync(join(objectsOf(root), n)).isDirectory());

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('snapshots through spare object files (node host)', () => {
  it('commits through spares: real git objects, spare folders become fan-out folders, undo is exact, close leaves nothing', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-spares-'));
    writeFileSync(join(root, 'a.txt'), 'line 0\n');
    const ws = openNodeWorkspace(root);
    const gitdir = join(root, '.sandpit', 'git');
    await ok(ws, 'read_file', { path: 'a.txt' });
    // the shadow repository opens with the first change; spares are made from then on
    await ok(ws, 'edit_file', { path: 'a.txt', old_text: 'line 0', new_text: 'line 1' });
    const dirsSeen = new Set<string>();
    let spareUsed = 0;
    for (let i = 2; i <= 31; i++) {
      await until(() => spareFiles(root).length >= 4 && spareDirs(root).length >= 1);
      for (const d of spareDirs(root)) dirsSeen.add(d);
      const before = new Set(spareFiles(root));
      await ok(ws, 'edit_file', { path: 'a.txt', old_text: `line ${i - 1}`, new_text: `line ${i}` });
      spareUsed += [...before].filter((n) => !spareFiles(root).includes(n)).length;
    }
    // every edit wrote a blob, a tree and a commit, each through a spare while they lasted
    expect(spareUsed).toBeGreaterThanOrEqual(30);
    // a spare folder that vanished while the workspace was open was renamed to a missing fan-out folder
    expect([...dirsSeen].filter((d) => !spareDirs(root).includes(d)).length).toBeGreaterThan(0);
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    expect(git(gitdir, 'rev-list', '--count', 'HEAD').trim()).toBe('32');
    expect(git(gitdir, 'show', 'HEAD:a.txt')).toBe('line 31\n');
    expect(git(gitdir, 'count-objects', '-v')).toMatch(/garbage: 0/);
    await ok(ws, 'undo', { steps: 3 });
    expect(readFileSync(join(root, 'a.txt'), 'utf8')).toBe('line 28\n');
    expect(git(gitdir, 'show', 'HEAD:a.txt')).toBe('line 28\n');
    await ws.close();
    expect(spareNames(root)).toEqual([]);
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
  });

  it('removes spares a killed server left long ago, and keeps recent ones another server may be using', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-spares-'));
    writeFileSync(join(root, 'c.txt'), 'c0\n');
    const first = openNodeWorkspace(root);
    await ok(first, 'write_file', { path: 'c.txt', content: 'c1\n' });
    await first.close();
    const objects = objectsOf(root);
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    writeFileSync(join(objects, 'tmp_obj_sandpit_oldfile'), '');
    mkdirSync(join(objects, 'tmp_obj_sandpit_olddir'));
    for (const n of ['tmp_obj_sandpit_oldfile', 'tmp_obj_sandpit_olddir'])
      utimesSync(join(objects, n), hoursAgo, hoursAgo);
    // what the backend's atomic write of a fresh object leaves when the process dies inside it
    const killedWrite = '.tmp_obj_sandpit_killed.0123456789ab.sandpit-tmp';
    writeFileSync(join(objects, killedWrite), 'half an obj');
    utimesSync(join(objects, killedWrite), hoursAgo, hoursAgo);
    writeFileSync(join(objects, 'tmp_obj_sandpit_recent'), '');
    writeFileSync(join(objects, 'tmp_obj_unrelated'), '');
    const ws = openNodeWorkspace(root);
    await ok(ws, 'write_file', { path: 'c.txt', content: 'c2\n' });
    await until(() => spareFiles(root).length >= 8);
    const names = readdirSync(objects);
    expect(names).not.toContain('tmp_obj_sandpit_oldfile');
    expect(names).not.toContain('tmp_obj_sandpit_olddir');
    expect(names).not.toContain(killedWrite);
    expect(names).toContain('tmp_obj_sandpit_recent');
    expect(names).toContain('tmp_obj_unrelated');
    await ws.close();
    expect(spareNames(root)).toEqual(['tmp_obj_sandpit_recent']);
  });

  it('writes the objects that find no spare ready beside the spares too, so a write killed part-way leaves no stray file in a fan-out folder', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-spares-'));
    writeFileSync(join(root, 'seed.txt'), 'seed\n');
    const real = createNodeFs({ root });
    const written: string[] = [];
    const fs = {
      ...real,
      writeFile: (path: string, data: Uint8Array | string, options?: { mode?: number }) => {
        written.push(path);
        return real.writeFile(path, data, options);
      },
    };
    const ws = createWorkspace({ fs, root });
    keepSpares(ws);
    const gitdir = join(root, '.sandpit', 'git');
    await ok(ws, 'write_file', { path: 'seed.txt', content: 'seed 2\n' });
    await until(() => spareFiles(root).length >= 8);
    written.length = 0;
    // 20 new blobs, a tree and a commit: more objects than there are spares, fewer than make a pack
    const adds = Array.from({ length: 20 }, (_, i) => `*** Add File: f${i}.txt\n+file ${i}\n`).join('');
    await ok(ws, 'apply_patch', { patch: `*** Begin Patch\n${adds}*** End Patch` });
    const objectWrites = written.filter((p) => p.includes('/.sandpit/git/objects/'));
    expect(objectWrites.filter((p) => /\/objects\/[0-9a-f]{2}\//.test(p))).toEqual([]);
    expect(
      objectWrites.filter((p) => /\/objects\/tmp_obj_sandpit_[0-9a-f]{16}$/.test(p)).length,
    ).toBeGreaterThanOrEqual(22 - 8);
    expect(git(gitdir, 'fsck', '--strict', '--no-dangling')).toBe('');
    expect(git(gitdir, 'count-objects', '-v')).toMatch(/garbage: 0/);
    expect(git(gitdir, 'show', 'HEAD:f19.txt')).toBe('file 19\n');
    await ws.close();
    expect(spareNames(root)).toEqual([]);
  });

  it('moves the branch by rewriting its ref file in place, which git reads as the head', async () => {
    root = mkdtempSync(join(tmpdir(), 'sandpit-spares-'));
    writeFileSync(join(root, 'b.txt'), 'v0\n');
    const ws = openNodeWorkspace(root);
    const gitdir = join(root, '.sandpit', 'git');
    const ref = join(gitdir, 'refs', 'heads', 'main');
    await ok(ws, 'read_file', { path: 'b.txt' });
    await ok(ws, 'edit_file', { path: 'b.txt', old_text: 'v0', new_text: 'v1' });
    const inode = statSync(ref).ino;
    for (let i = 2; i <= 4; i++) await ok(ws, 'edit_file', { path: 'b.txt', old_text: `v${i - 1}`, new_text: `v${i}` });
    expect(statSync(ref).ino).toBe(inode);
    const listed = await ok(ws, 'list_snapshots', { limit: 1 });
    expect(git(gitdir, 'rev-parse', 'HEAD').trim().startsWith(listed.snapshots[0].id)).toBe(true);
    expect(git(gitdir, 'show', 'HEAD:b.txt')).toBe('v4\n');
    await ws.close();
  });
});
