import type { Workspace } from '../../index.js';
import type { WorkspaceFs } from '../../fs/types.js';
import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

/**
 * Files in the big fork: a hundred by default, 10,000 when HARDENING=full is set (Node) or on
 * globalThis (a browser run). Fork and merge have no size limit of their own, and a hundred, five
 * in each of twenty folders, passes every one the snapshot code has as the 300 it was did (over 32
 * objects streams into a pack; more folders than 4 reads or 16 stats in flight; none over 64 files
 * in a folder): seeding, snapshotting and reading the other 200 twice was most of the test's cost.
 */
function forkSize(): number {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const full = env?.HARDENING === 'full' || (globalThis as { SANDPIT_HARDENING?: string }).SANDPIT_HARDENING === 'full';
  return full ? 10_000 : 100;
}

const lines = (n: number, tag = 'line') => Array.from({ length: n }, (_, i) => `${tag} ${i + 1}\n`).join('');
const BINARY = new Uint8Array([0, 1, 2, 3, 255, 0, 9]);

const SEED: Record<string, string | Uint8Array> = {
  'a.txt': lines(20),
  'c.txt': lines(5),
  'd.txt': lines(5),
  'crlf.txt': 'one\r\ntwo\r\nthree\r\nfour\r\nfive\r\n',
  'keep.txt': 'same\n',
  'gone.txt': 'delete me\n',
  'r.txt': lines(12, 'rename'),
  'bin/one.dat': BINARY,
  'bin/two.dat': BINARY,
};

/** Every file under a workspace's root (`.sandpit` left out), as text, or bytes listed. */
async function filesOf(fs: WorkspaceFs, root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (rel: string) => {
    for (const name of (await fs.readdir(rel ? `${root}/${rel}` : root)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      if (child === '.sandpit') continue;
      const abs = `${root === '/' ? '' : root}/${child}`;
      const st = await fs.lstat(abs);
      if (st.type === 'dir') await walk(child);
      else out[child] = [...(await fs.readFile(abs))].join(',');
    }
  };
  await walk('');
  return out;
}

/** The entries of SEED below `prefix`. */
function pick(seed: Record<string, string | Uint8Array>, prefix: string): Record<string, string | Uint8Array> {
  return Object.fromEntries(Object.entries(seed).filter(([path]) => path.startsWith(prefix)));
}

/** The store's object files (loose and packs) with their sizes, sorted; spare temporaries left out. */
async function objectFiles(fs: WorkspaceFs, dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string) => {
    for (const name of await fs.readdir(at)) {
      if (name.startsWith('tmp_obj_')) continue;
      const st = await fs.lstat(`${at}/${name}`);
      if (st.type === 'dir') await walk(`${at}/${name}`);
      else out.push(`${at.slice(dir.length)}/${name} ${st.size}`);
    }
  };
  await walk(dir);
  return out.sort();
}

async function ok<R = Record<string, any>>(ws: Workspace, tool: string, args: unknown): Promise<R> {
  const env = await ws.call<R>(tool, args);
  if (!env.ok) throw new Error(`${tool} failed: ${JSON.stringify(env.error)}`);
  return env.result;
}

async function write(ws: Workspace, path: string, content: string): Promise<void> {
  await ws.call('read_file', { path });
  await ok(ws, 'write_file', { path, content });
}

/** Fork and merge: copy-on-write forks on every backend, three-way merges back, undo of a merge. */
export function forkMergeContract(backend: BackendUnderTest) {
  describe('fork and merge', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('forks a large workspace that reads as the parent, keeps both sides apart, and merges cleanly', async () => {
      const n = forkSize();
      const seed: Record<string, string | Uint8Array> = { ...SEED };
      for (let i = 0; i < n; i++) seed[`many/d${i % 20}/f${i}.txt`] = `file ${i}\n`;
      h = await openRootOnly(backend, seed);
      const before = await filesOf(h.fs, h.root);
      const fork = await h.ws.fork({ name: 'worker' });
      expect(await filesOf(fork.fs, fork.root)).toEqual(before);

      await write(fork, 'a.txt', lines(20).replace('line 2\n', 'line 2 (fork)\n'));
      await write(fork, 'new/added.txt', 'from the fork\n');
      await ok(fork, 'delete_path', { path: 'gone.txt' });
      await write(fork, 'many/d3/f3.txt', 'changed in the fork\n');
      await write(fork, 'crlf.txt', 'one\r\ntwo\r\nthree\r\nfour\r\nFIVE\r\n');
      await write(h.ws, 'a.txt', lines(20).replace('line 18\n', 'line 18 (parent)\n'));
      await write(h.ws, 'crlf.txt', 'ONE\r\ntwo\r\nthree\r\nfour\r\nfive\r\n');
      // each side sees only its own changes
      expect(await h.text('gone.txt')).toBe('delete me\n');
      expect(await h.text('a.txt')).toContain('(parent)');
      expect((await ok<{ content: string }>(fork, 'read_file', { path: 'a.txt' })).content).toContain('(fork)');
      expect((await ok<{ content: string }>(fork, 'read_file', { path: 'a.txt' })).content.includes('(parent)')).toBe(
        false,
      );

      const listed = await h.ws.forks();
      expect(listed.map((f) => f.name)).toEqual(['worker']);
      const preMerge = await filesOf(h.fs, h.root);
      const dry = await h.ws.merge(fork, { dryRun: true });
      expect(dry.ok && dry.result.clean).toBe(true);
      expect(dry.ok && dry.result.files.length).toBe(5);
      expect(await filesOf(h.fs, h.root)).toEqual(preMerge);

      const merged = await h.ws.merge(fork);
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      expect(merged.result.files.map((f) => [f.path, f.action])).toEqual([
        ['a.txt', 'modified'],
        ['crlf.txt', 'modified'],
        ['gone.txt', 'deleted'],
        ['many/d3/f3.txt', 'modified'],
        ['new/added.txt', 'added'],
      ]);
      expect(typeof merged.result.change_id).toBe('string');
      expect(await h.text('a.txt')).toBe(
        lines(20).replace('line 2\n', 'line 2 (fork)\n').replace('line 18\n', 'line 18 (parent)\n'),
      );
      expect(await h.text('crlf.txt')).toBe('ONE\r\ntwo\r\nthree\r\nfour\r\nFIVE\r\n');
      expect(await h.text('gone.txt')).toBeNull();
      expect(await h.text('new/added.txt')).toBe('from the fork\n');
      expect(await h.text('many/d3/f3.txt')).toBe('changed in the fork\n');
      expect(await h.text('many/d4/f4.txt')).toBe('file 4\n');
    });

    it('lists conflicts per path with both sides and the base, and changes nothing', async () => {
      h = await openRootOnly(backend, SEED);
      const fork = await h.ws.fork({ name: 'clash' });
      await write(fork, 'c.txt', lines(5).replace('line 3\n', 'fork 3\n'));
      await write(fork, 'd.txt', lines(5).replace('line 1\n', 'fork 1\n'));
      await ok(fork, 'delete_path', { path: 'keep.txt' });
      await write(h.ws, 'c.txt', lines(5).replace('line 3\n', 'parent 3\n'));
      await write(h.ws, 'keep.txt', 'edited\n');
      const before = await filesOf(h.fs, h.root);
      const snapshots = (await ok(h.ws, 'list_snapshots', { limit: 100 })).snapshots.length;

      const failed = await h.ws.merge('clash');
      if (failed.ok) throw new Error('the merge should conflict');
      expect(failed.error.code).toBe('PATCH_CONFLICT');
      const problems = failed.error.problems as unknown as Array<Record<string, any>>;
      expect(problems.map((p) => [p.path, p.kind])).toEqual([
        ['c.txt', 'content'],
        ['keep.txt', 'modify/delete'],
      ]);
      expect(problems[0]!.hunks).toEqual([
        { base_start_line: 3, base_line_count: 1, base: 'line 3\n', ours: 'parent 3\n', theirs: 'fork 3\n' },
      ]);
      expect(await filesOf(h.fs, h.root)).toEqual(before);
      expect((await ok(h.ws, 'list_snapshots', { limit: 100 })).snapshots.length).toBe(snapshots);

      const dry = await h.ws.merge('clash', { dryRun: true });
      expect(dry.ok && dry.result.clean).toBe(false);
      expect(dry.ok && dry.result.conflicts.map((c) => c.path)).toEqual(['c.txt', 'keep.txt']);
      expect(await filesOf(h.fs, h.root)).toEqual(before);
    });

    it('merges after the parent moved on, and again from the last merge', async () => {
      h = await openRootOnly(backend, SEED);
      const fork = await h.ws.fork({ name: 'later' });
      await write(h.ws, 'd.txt', lines(5).replace('line 5\n', 'parent 5\n'));
      await write(h.ws, 'parent-only.txt', 'p\n');
      await ok(h.ws, 'move_path', { from: 'keep.txt', to: 'kept/keep.txt' });
      await write(fork, 'd.txt', lines(5).replace('line 1\n', 'fork 1\n'));
      expect((await h.ws.merge(fork)).ok).toBe(true);
      expect(await h.text('d.txt')).toBe(lines(5).replace('line 1\n', 'fork 1\n').replace('line 5\n', 'parent 5\n'));
      // the fork goes on; the next merge's base is the last merge, so d.txt does not conflict with itself
      await write(fork, 'c.txt', 'rewritten by the fork\n');
      const again = await h.ws.merge(fork);
      if (!again.ok) throw new Error(JSON.stringify(again.error));
      expect(again.result.files.map((f) => f.path)).toEqual(['c.txt']);
      expect(await h.text('c.txt')).toBe('rewritten by the fork\n');
      expect(await h.text('kept/keep.txt')).toBe('same\n');
      expect(await h.text('parent-only.txt')).toBe('p\n');
    });

    it('carries edits across renames and merges binary files by content', async () => {
      h = await openRootOnly(backend, SEED);
      const fork = await h.ws.fork({ name: 'moves' });
      await ok(fork, 'move_path', { from: 'r.txt', to: 'moved/r2.txt' });
      await write(h.ws, 'r.txt', lines(12, 'rename').replace('rename 11\n', 'parent 11\n'));
      await fork.importFiles([{ path: 'bin/one.dat', bytes: new Uint8Array([0, 7, 7]) }]);
      await fork.importFiles([{ path: 'bin/two.dat', bytes: new Uint8Array([0, 8]) }]);
      await h.ws.importFiles([{ path: 'bin/two.dat', bytes: new Uint8Array([0, 8]) }]);
      const merged = await h.ws.merge(fork);
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      expect(merged.result.files.filter((f) => f.path === 'moved/r2.txt')).toEqual([
        { path: 'moved/r2.txt', action: 'renamed', from: 'r.txt' },
      ]);
      expect(await h.text('r.txt')).toBeNull();
      expect(await h.text('moved/r2.txt')).toBe(lines(12, 'rename').replace('rename 11\n', 'parent 11\n'));
      expect([...((await h.bytes('bin/one.dat')) ?? [])]).toEqual([0, 7, 7]);
      expect([...((await h.bytes('bin/two.dat')) ?? [])]).toEqual([0, 8]);

      await fork.importFiles([{ path: 'bin/one.dat', bytes: new Uint8Array([0, 1]) }]);
      await h.ws.importFiles([{ path: 'bin/one.dat', bytes: new Uint8Array([0, 2]) }]);
      const clash = await h.ws.merge(fork);
      expect(!clash.ok && (clash.error.problems as unknown as Array<{ kind: string }>).map((p) => p.kind)).toEqual([
        'binary',
      ]);
      expect([...((await h.bytes('bin/one.dat')) ?? [])]).toEqual([0, 2]);
    });

    it('leaves no empty folder where a merged deletion emptied one, as git does', async () => {
      h = await openRootOnly(backend, {
        'keep.txt': 'same\n',
        'deep/a/b/only.txt': 'last one\n',
        ...pick(SEED, 'bin/'),
      });
      const fork = await h.ws.fork({ name: 'tidy' });
      await ok(fork, 'delete_path', { path: 'deep/a/b/only.txt' });
      await ok(fork, 'delete_path', { path: 'bin/one.dat' });
      const merged = await h.ws.merge(fork);
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      expect((await ok(h.ws, 'exists', { path: 'deep' })).exists).toBe(false);
      expect(await h.fs.readdir(`${h.root}/bin`)).toEqual(['two.dat']);
      await ok(h.ws, 'undo', {});
      expect(await h.text('deep/a/b/only.txt')).toBe('last one\n');
    });

    it('frees on drop the snapshot objects only the fork wrote, loose and packed', async () => {
      h = await openRootOnly(backend, { 'keep.txt': 'same\n' });
      await write(h.ws, 'keep.txt', 'changed\n');
      const objects = `${h.root === '/' ? '' : h.root}/.sandpit/git/objects`;
      const before = await objectFiles(h.fs, objects);
      const fork = await h.ws.fork({ name: 'scratch' });
      for (let i = 0; i < 5; i++) await ok(fork, 'write_file', { path: `s/f${i}.txt`, content: `scratch ${i}\n` });
      const many = Array.from({ length: 40 }, (_, i) => ({
        path: `p/g${i}.txt`,
        bytes: new TextEncoder().encode(`${i}\n`),
      }));
      expect((await fork.importFiles(many)).ok).toBe(true);
      expect((await objectFiles(h.fs, objects)).length).toBeGreaterThan(before.length);
      const dropped = await h.ws.dropFork(fork);
      expect(dropped.ok && dropped.result.freed_objects).toBeGreaterThan(40);
      expect(await objectFiles(h.fs, objects)).toEqual(before);
      expect(await h.text('keep.txt')).toBe('changed\n');
      expect((await ok(h.ws, 'list_snapshots', {})).snapshots.length).toBeGreaterThanOrEqual(2);
    });

    it('undoes a merge as one change, and drops forks of forks', async () => {
      h = await openRootOnly(backend, SEED);
      const fork = await h.ws.fork({ name: 'outer' });
      const inner = await fork.fork({ name: 'inner' });
      await write(inner, 'c.txt', 'from the inner fork\n');
      await write(inner, 'e.txt', 'new\n');
      expect((await fork.merge(inner)).ok).toBe(true);
      await write(fork, 'd.txt', 'from the outer fork\n');
      const before = await filesOf(h.fs, h.root);
      const merged = await h.ws.merge(fork);
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      expect(merged.result.files.map((f) => f.path)).toEqual(['c.txt', 'd.txt', 'e.txt']);
      expect(await h.text('c.txt')).toBe('from the inner fork\n');
      await ok(h.ws, 'undo', {});
      expect(await filesOf(h.fs, h.root)).toEqual(before);

      expect((await fork.forks()).map((f) => f.name)).toEqual(['inner']);
      const dropped = await h.ws.dropFork('outer');
      expect(dropped.ok).toBe(true);
      expect(await h.ws.forks()).toEqual([]);
      expect(await h.fs.readdir(`${h.root}/.sandpit/forks`)).toEqual([]);
      expect((await h.ws.merge('outer')).ok).toBe(false);
    });
  });
}
