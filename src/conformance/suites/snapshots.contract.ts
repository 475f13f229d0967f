import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

const SEED = {
  'README.md': '# demo\n',
  'src/a.ts': 'export const a = 1;\n',
  'src/b.ts': 'export const b = 2;\r\nexport const c = 3;\r\n',
  'lib/deep/util.ts': 'export function util() {\n  return 1;\n}\n',
  'bin/blob.dat': new Uint8Array([0, 1, 2, 255, 0, 10, 13]),
};

const PATCH = `*** Begin Patch
*** Update File: lib/deep/util.ts
@@
 export function util() {
-  return 1;
+  return 2;
 }
*** Add File: docs/notes.md
+notes
*** End Patch
`;

/** Snapshots, history and undo: every step compared byte for byte with the whole tree. */
export function snapshotsContract(backend: BackendUnderTest) {
  describe('snapshots', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('undoes writes, edits, patches, moves and deletes step by step, then redoes them', async () => {
      h = await openRootOnly(backend, SEED);
      const states = [await h.tree()];
      const steps: Array<[string, Record<string, unknown>]> = [
        ['write_file', { path: 'src/new/c.ts', content: 'export const c = 3;\n' }],
        ['edit_file', { path: 'src/b.ts', old_text: 'c = 3', new_text: 'c = 33' }],
        ['apply_patch', { patch: PATCH }],
        ['move_path', { from: 'src/a.ts', to: 'moved/a.ts' }],
        ['delete_path', { path: 'bin/blob.dat' }],
        ['append_file', { path: 'README.md', content: 'more\n' }],
        ['delete_path', { path: 'lib', recursive: true }],
        ['write_file', { path: 'README.md', content: 'replaced\n' }],
      ];
      for (const [tool, args] of steps) {
        if (tool === 'edit_file' || tool === 'write_file' || tool === 'append_file')
          await h.ws.call('read_file', { path: String(args.path) });
        await h.ok(tool, args);
        states.push(await h.tree());
      }
      const listed = (await h.ok('list_snapshots', { limit: 100 })).snapshots;
      expect(listed).toHaveLength(steps.length + 1);
      expect(listed.map((s: { tool?: string }) => s.tool ?? null)).toEqual([...steps.map(([t]) => t).reverse(), null]);
      const ids = listed.map((s: { id: string }) => s.id).reverse();

      for (let i = states.length - 2; i >= 0; i--) {
        const undo = await h.ok('undo', {});
        expect(undo.restored_to, `undo to state ${i}`).toBe(ids[i]);
        expect(await h.tree(), `after undo to state ${i}`).toEqual(states[i]);
      }
      expect((await h.fail('undo', {})).code).toBe('NOT_FOUND');
      for (let i = 1; i < states.length; i++) {
        await h.ok('restore_snapshot', { id: ids[i] });
        expect(await h.tree(), `after redo to state ${i}`).toEqual(states[i]);
      }
      // The last redo is itself undoable.
      await h.ok('undo', {});
      expect(await h.tree()).toEqual(states[states.length - 2]);
    });

    it('undoes several steps at once and says how far it can go', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'v0\n' });
      const start = await h.tree();
      for (const v of ['v1', 'v2', 'v3']) await h.ok('write_file', { path: 'f.txt', content: `${v}\n` });
      const err = await h.fail('undo', { steps: 4 });
      expect(err).toMatchObject({ code: 'NOT_FOUND' });
      expect(err.hint).toContain('steps: 3');
      const r = await h.ok('undo', { steps: 3 });
      expect(r.change_id).toMatch(/^chg_/);
      expect(r.files_changed).toBe(1);
      expect(await h.tree()).toEqual(start);
      await h.ok('restore_snapshot', { id: r.redo_with });
      expect(await h.text('f.txt')).toBe('v3\n');
    });

    it("captures a change made behind the tools' back with rescan()", async () => {
      h = await openRootOnly(backend, { 'f.txt': 'one\n' });
      await h.ok('write_file', { path: 'g.txt', content: 'tool\n' });
      await h.put('f.txt', 'two\n');
      await h.put('made/by/process.txt', 'output\n');
      const found = await h.ws.rescan();
      expect(found?.changed).toEqual(['f.txt', 'made/by/process.txt']);
      expect(found?.snapshot?.files_changed).toBe(2);
      expect(await h.ws.rescan()).toMatchObject({ snapshot: null, changed: [] });
      const diff = await h.ok('diff_snapshots', {});
      expect(diff.files).toEqual([
        { path: 'f.txt', status: 'modified', added_lines: 1, removed_lines: 1 },
        { path: 'made/by/process.txt', status: 'added', added_lines: 1, removed_lines: 0 },
      ]);
      expect(diff.unified_diff).toContain('-one\n+two\n');
      const before = await h.tree();
      await h.ok('undo', {});
      expect(await h.text('f.txt')).toBe('one\n');
      expect(await h.bytes('made/by/process.txt')).toBeNull();
      expect(Object.keys(await h.tree())).not.toContain('made/');
      await h.ok('undo', {});
      expect(await h.bytes('g.txt')).toBeNull();
      await h.ok('restore_snapshot', { id: found!.snapshot!.id });
      expect(await h.tree()).toEqual(before);
    });

    it('an undo saves unsnapshotted changes first, so they can be brought back', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'one\n' });
      await h.ok('write_file', { path: 'f.txt', content: 'two\n' });
      await h.put('f.txt', 'three (by hand)\n');
      const r = await h.ok('undo', {});
      expect(await h.text('f.txt')).toBe('two\n');
      await h.ok('restore_snapshot', { id: r.redo_with });
      expect(await h.text('f.txt')).toBe('three (by hand)\n');
    });

    it('diffs two snapshots, optionally for one path', async () => {
      h = await openRootOnly(backend, { 'a/x.txt': 'x\n', 'b/y.txt': 'y1\ny2\n' });
      const first = (await h.ok('list_snapshots', {})).snapshots[0].id;
      await h.ok('write_file', { path: 'a/x.txt', content: 'x2\n' });
      await h.ok('write_file', { path: 'b/y.txt', content: 'y1\nY2\ny3\n' });
      await h.ok('delete_path', { path: 'a/x.txt' });
      const all = await h.ok('diff_snapshots', { from: first });
      expect(all.files).toEqual([
        { path: 'a/x.txt', status: 'deleted', added_lines: 0, removed_lines: 1 },
        { path: 'b/y.txt', status: 'modified', added_lines: 2, removed_lines: 1 },
      ]);
      expect(all.unified_diff).toContain('--- a/b/y.txt\n+++ b/b/y.txt\n');
      const one = await h.ok('diff_snapshots', { from: first, path: 'b' });
      expect(one.files.map((f: { path: string }) => f.path)).toEqual(['b/y.txt']);
      expect(one.unified_diff).not.toContain('x.txt');
      expect((await h.fail('diff_snapshots', { from: 'abcdef12' })).code).toBe('NOT_FOUND');
      expect((await h.fail('diff_snapshots', { path: '.sandpit/git' })).code).toBe('PERMISSION_DENIED');
    });

    it('honours .gitignore and leaves out files over the size cap, listing them', async () => {
      h = await openRootOnly(
        backend,
        {
          '.gitignore': 'build/\n*.log\n',
          'build/out.js': 'built\n',
          'app.log': 'log\n',
          'keep.txt': 'keep\n',
          'big.bin': new Uint8Array(2048),
        },
        { snapshots: { maxFileBytes: 1024 } },
      );
      const snap = await h.ok('snapshot', { message: 'checkpoint' });
      expect(snap).toMatchObject({
        message: 'checkpoint',
        skipped: [{ path: 'big.bin', size_bytes: 2048, reason: 'too_large' }],
      });
      expect(snap.id).toMatch(/^[0-9a-f]{12}$/);
      const tracked = await h.ws.snapshots!.tree.files();
      expect([...tracked.keys()].sort()).toEqual(['.gitignore', 'keep.txt']);
      await h.put('build/out.js', 'rebuilt\n');
      expect((await h.ws.rescan())?.snapshot).toBeNull();
      // Undo neither removes nor rewrites what snapshots leave out.
      await h.ok('write_file', { path: 'keep.txt', content: 'changed\n' });
      await h.ok('undo', {});
      expect(await h.text('keep.txt')).toBe('keep\n');
      expect(await h.text('build/out.js')).toBe('rebuilt\n');
      expect(await h.bytes('big.bin')).toHaveLength(2048);
    });

    it('leaves out node_modules, build and cache folders by default and lists them; a .gitignore line or the option keeps them', async () => {
      const project = {
        'package.json': '{}\n',
        'src/a.ts': 'a\n',
        'node_modules/pkg/index.js': 'module.exports = 1;\n',
        'node_modules/pkg/deep/x.js': 'x\n',
        'packages/app/node_modules/dep/i.js': 'i\n',
        'dist/app.js': 'built\n',
        '.cache/blob': 'cached\n',
        'out/report.md': 'an artifact\n',
      };
      h = await openRootOnly(backend, project);
      const first = await h.ok('write_file', { path: 'src/b.ts', content: 'b\n' });
      expect(first.snapshot_error).toBeUndefined();
      const held = async () => [...(await h.ws.snapshots!.tree.files()).keys()].sort();
      expect(await held()).toEqual(['out/report.md', 'package.json', 'src/a.ts', 'src/b.ts']);
      const snap = await h.ok('snapshot', { message: 'checkpoint' });
      expect(snap.skipped.map((s: { path: string; reason: string }) => [s.path, s.reason]).sort()).toEqual([
        ['.cache', 'excluded'],
        ['dist', 'excluded'],
        ['node_modules', 'excluded'],
        ['packages/app/node_modules', 'excluded'],
      ]);
      // Undo leaves what snapshots leave out alone.
      await h.ok('undo', {});
      expect(await h.text('node_modules/pkg/index.js')).toBe('module.exports = 1;\n');
      expect(await h.text('dist/app.js')).toBe('built\n');
      await h.cleanup();

      // A .gitignore that names a folder (at any depth, as in git) is the person's choice: left out,
      // not listed; `!dist/` keeps dist.
      h = await openRootOnly(backend, { ...project, '.gitignore': 'node_modules/\n!dist/\n' });
      await h.ok('write_file', { path: 'src/b.ts', content: 'b\n' });
      expect(await held()).toEqual([
        '.gitignore',
        'dist/app.js',
        'out/report.md',
        'package.json',
        'src/a.ts',
        'src/b.ts',
      ]);
      expect((await h.ok('snapshot', {})).skipped.map((s: { path: string }) => s.path).sort()).toEqual(['.cache']);
      await h.cleanup();

      // snapshots.exclude replaces the list: [] keeps every folder.
      h = await openRootOnly(backend, project, { snapshots: { exclude: [] } });
      await h.ok('write_file', { path: 'src/b.ts', content: 'b\n' });
      expect(await held()).toEqual([...Object.keys(project), 'src/b.ts'].sort());
    });

    it('keeps a file it already holds when a .gitignore later names it, as git does', async () => {
      h = await openRootOnly(backend, { 'app.log': 'first\n', 'out/keep.js': 'kept\n', 'src/a.ts': 'a\n' });
      await h.ok('snapshot', { message: 'tracked' });
      await h.ok('write_file', { path: '.gitignore', content: '*.log\nout/\n' });
      await h.put('new.log', 'never\n');
      await h.put('out/new.js', 'never\n');
      await h.ws.rescan();
      const held = async () => [...(await h.ws.snapshots!.tree.files()).keys()].sort();
      expect(await held()).toEqual(['.gitignore', 'app.log', 'out/keep.js', 'src/a.ts']);
      // a change to a held file is still recorded, through the tools and behind their back
      await h.ok('write_file', { path: 'app.log', content: 'second\n' });
      await h.put('out/keep.js', 'changed\n');
      await h.ws.rescan();
      await h.ok('undo', {});
      expect(await h.text('out/keep.js')).toBe('kept\n');
      expect(await h.text('app.log')).toBe('second\n');
      expect(await held()).toEqual(['.gitignore', 'app.log', 'out/keep.js', 'src/a.ts']);
      // deleting a held file removes it from the next snapshot
      await h.ok('delete_path', { path: 'app.log' });
      expect(await held()).toEqual(['.gitignore', 'out/keep.js', 'src/a.ts']);
      expect(await h.text('new.log')).toBe('never\n');
    });

    it('keeps the executable bit a checkout gave a file, through an edit, a move, a snapshot and an undo', async () => {
      h = await openRootOnly(backend, { 'notes.txt': 'plain\n' });
      // A backend without modes (OPFS as a tree) ignores the mode, and its snapshots say 100644.
      const modes = h.fs.capabilities?.modes === true;
      const want = modes ? '100755' : '100644';
      const executable = async (rel: string) => ((await h.fs.stat(h.abs(rel))).mode & 0o111) !== 0;
      const recorded = async (rel: string) => (await h.ws.snapshots!.tree.files()).get(rel)?.mode;
      await h.fs.mkdir(h.abs('bin'));
      await h.fs.writeFile(h.abs('bin/run.sh'), new TextEncoder().encode('echo one\n'), { mode: 0o755 });
      await h.ws.rescan();
      expect(await executable('bin/run.sh')).toBe(modes);
      expect(await recorded('bin/run.sh')).toBe(want);
      await h.ok('edit_file', { path: 'bin/run.sh', old_text: 'one', new_text: 'two' });
      await h.ok('move_path', { from: 'bin/run.sh', to: 'run.sh' });
      expect(await executable('run.sh')).toBe(modes);
      expect(await recorded('run.sh')).toBe(want);
      expect(await recorded('notes.txt')).toBe('100644');
      await h.ok('delete_path', { path: 'run.sh' });
      await h.ok('undo', {});
      expect(await h.text('run.sh')).toBe('echo two\n');
      expect(await executable('run.sh')).toBe(modes);
      expect(await recorded('run.sh')).toBe(want);
      // A mode given for an existing file is applied, as a checkout of a mode change needs.
      await h.fs.writeFile(h.abs('run.sh'), new TextEncoder().encode('echo three\n'), { mode: 0o644 });
      expect(await executable('run.sh')).toBe(false);
    });

    it("never touches a user's own .git and never snapshots it", async () => {
      const userGit = {
        '.git/HEAD': 'ref: refs/heads/main\n',
        '.git/config': '[core]\n\tbare = false\n',
        'sub/.git/index': new Uint8Array([1, 2, 3]),
      };
      h = await openRootOnly(backend, { ...userGit, 'f.txt': 'x\n' });
      for (let i = 0; i < 12; i++) await h.ok('write_file', { path: `f${i % 3}.txt`, content: `${i}\n` });
      await h.ok('undo', { steps: 5 });
      await h.ok('snapshot', {});
      for (const [rel, content] of Object.entries(userGit)) {
        expect(await h.bytes(rel), rel).toEqual(
          typeof content === 'string' ? new TextEncoder().encode(content) : content,
        );
      }
      expect([...(await h.ws.snapshots!.tree.files()).keys()].some((p) => p.includes('.git/'))).toBe(false);
    });

    it('keeps only the newest snapshots when a limit is set', async () => {
      h = await openRootOnly(backend, { 'f.txt': '0\n' }, { snapshots: { keep: 3 } });
      for (let i = 1; i <= 6; i++) await h.ok('write_file', { path: 'f.txt', content: `${i}\n` });
      const r = await h.ok('list_snapshots', {});
      expect(r.count).toBe(3);
      await h.ok('undo', { steps: 2 });
      expect(await h.text('f.txt')).toBe('4\n');
      expect((await h.fail('undo', { steps: 2 })).code).toBe('NOT_FOUND');
    });

    it('snapshots once per batch, or only on request', async () => {
      h = await openRootOnly(backend, { 'f.txt': '0\n' }, { snapshots: { when: 'batch' } });
      await h.ws.batch(async () => {
        await h.ok('write_file', { path: 'f.txt', content: '1\n' });
        await h.ok('write_file', { path: 'g.txt', content: '1\n' });
      });
      await Promise.all([
        h.ok('write_file', { path: 'x.txt', content: 'x\n' }),
        h.ok('write_file', { path: 'y.txt', content: 'y\n' }),
      ]);
      const batched = (await h.ok('list_snapshots', {})).snapshots;
      expect(batched.map((s: { files_changed: number }) => s.files_changed)).toEqual([2, 2, 1]);
      await h.cleanup();

      h = await openRootOnly(backend, { 'f.txt': '0\n' }, { snapshots: { when: 'manual' } });
      await h.ok('write_file', { path: 'f.txt', content: '1\n' });
      await h.ok('write_file', { path: 'f.txt', content: '2\n' });
      expect((await h.ok('list_snapshots', {})).count).toBe(1);
      const snap = await h.ok('snapshot', { message: 'by hand' });
      expect(snap.files_changed).toBe(1);
      await h.ok('undo', {});
      expect(await h.text('f.txt')).toBe('0\n');
    });

    it('answers with NOT_SUPPORTED when snapshots are off, and writes nothing', async () => {
      h = await openRootOnly(backend, { 'f.txt': '0\n' }, { snapshots: false });
      await h.ok('write_file', { path: 'f.txt', content: '1\n' });
      expect((await h.fail('undo', {})).code).toBe('NOT_SUPPORTED');
      expect((await h.fail('list_snapshots', {})).code).toBe('NOT_SUPPORTED');
      expect(await h.fs.readdir(h.root)).not.toContain('.sandpit');
    });

    it('refuses unknown and malformed snapshot ids with coded errors', async () => {
      h = await openRootOnly(backend, { 'f.txt': '0\n' });
      await h.ok('write_file', { path: 'f.txt', content: '1\n' });
      expect((await h.fail('restore_snapshot', { id: 'deadbeef' })).code).toBe('NOT_FOUND');
      const bad = await h.fail('restore_snapshot', { id: '../HEAD' });
      expect(bad.code).toBe('INVALID_ARGUMENTS');
      expect(bad.problems).toEqual([{ path: '/id', message: 'must match pattern "^[0-9a-fA-F]+$"' }]);
      expect((await h.fail('undo', { steps: 0 })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('list_snapshots', { colour: 1 })).problems).toEqual([
        { path: '/colour', message: 'is not a known argument' },
      ]);
    });
  });
}
