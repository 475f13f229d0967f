import { afterEach, describe, expect, it } from './api.js';
import type { BackendUnderTest } from './backend.js';
import { openRootOnly, type Harness } from './harness.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

/** apply_patch behaviour that needs more than a folder: policies, the change log, dry runs, cwd, links. */
export function applyPatchCases(backend: BackendUnderTest) {
  describe('apply_patch behaviour', () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.cleanup();
      h = undefined;
    });

    it('reports each file and records the whole patch as one change with its diff', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'one\ntwo\nthree\n', 'gone.txt': 'bye\n', 'src/m.ts': 'm\n' });
      const r = await h.ok('apply_patch', {
        patch: patch(
          '*** Update File: a.txt',
          '@@',
          ' one',
          '-two',
          '+2',
          '+2b',
          ' three',
          '*** Delete File: gone.txt',
          '*** Update File: src/m.ts',
          '*** Move to: lib/m.ts',
          '*** Add File: new.txt',
          '+fresh',
        ),
      });
      expect(r.files).toEqual([
        { path: 'a.txt', action: 'update', moved_to: null, added_lines: 2, removed_lines: 1 },
        { path: 'gone.txt', action: 'delete', moved_to: null, added_lines: 0, removed_lines: 1 },
        { path: 'src/m.ts', action: 'move', moved_to: 'lib/m.ts', added_lines: 0, removed_lines: 0 },
        { path: 'new.txt', action: 'add', moved_to: null, added_lines: 1, removed_lines: 0 },
      ]);
      expect(r.unified_diff).toBeUndefined();
      const change = h.ws.changes.get(r.change_id)!;
      expect(change.tool).toBe('apply_patch');
      expect(change.files.map((f) => [f.path, f.status])).toEqual([
        ['lib/m.ts', 'moved'],
        ['a.txt', 'modified'],
        ['gone.txt', 'deleted'],
        ['new.txt', 'added'],
      ]);
      expect(change.unified_diff).toContain('-two\n+2\n+2b\n');
      expect(change.unified_diff).toContain('+++ b/new.txt');
      expect(h.ws.changes.list()).toHaveLength(1);
    });

    it('dry_run returns the diff and counts and writes nothing', async () => {
      const asked: string[][] = [];
      h = await openRootOnly(
        backend,
        { 'a.txt': 'x\ny\n', 'd.txt': 'd\n' },
        {
          policy: {
            confirm: (p) => {
              asked.push(p);
              return true;
            },
          },
        },
      );
      const before = await h.tree();
      const r = await h.ok('apply_patch', {
        dry_run: true,
        patch: patch('*** Update File: a.txt', '-y', '+why', '*** Delete File: d.txt'),
      });
      expect(r).toMatchObject({
        dry_run: true,
        change_id: null,
        files: [
          { path: 'a.txt', added_lines: 1, removed_lines: 1 },
          { path: 'd.txt', action: 'delete' },
        ],
      });
      expect(r.unified_diff).toContain('--- a/a.txt\n+++ b/a.txt');
      expect(r.unified_diff).toContain('-y\n+why');
      expect(r.unified_diff).toContain('+++ /dev/null');
      expect(await h.tree()).toEqual(before);
      expect(asked).toEqual([]);
      expect(h.ws.changes.list()).toHaveLength(0);
    });

    it('asks about all deletes once, together, before writing anything', async () => {
      const seen: Array<{ paths: string[]; a: string | null }> = [];
      h = await openRootOnly(
        backend,
        { 'a.txt': 'a\n', 'x.txt': 'x\n', 'dir/y.txt': 'y\n' },
        {
          policy: {
            confirm: async (paths, action) => {
              seen.push({ paths, a: await h!.text('a.txt') });
              return action === 'delete';
            },
          },
        },
      );
      await h.ok('apply_patch', {
        patch: patch('*** Update File: a.txt', '-a', '+A', '*** Delete File: x.txt', '*** Delete File: dir/y.txt'),
      });
      expect(seen).toEqual([{ paths: ['x.txt', 'dir/y.txt'], a: 'a\n' }]);
      expect(await h.text('a.txt')).toBe('A\n');
      const none = await h.ok('apply_patch', { patch: patch('*** Update File: a.txt', '-A', '+B') });
      expect(none.change_id).toMatch(/^chg_/);
      expect(seen).toHaveLength(1);
    });

    it('a rejected or failing confirmation applies nothing', async () => {
      h = await openRootOnly(
        backend,
        { 'a.txt': 'a\n', 'x.txt': 'x\n' },
        { policy: { confirm: () => Promise.reject(new Error('/host/secret')) } },
      );
      const before = await h.tree();
      const err = await h.fail('apply_patch', {
        patch: patch('*** Update File: a.txt', '-a', '+A', '*** Delete File: x.txt'),
      });
      expect(err.code).toBe('CONFIRMATION_DENIED');
      expect(JSON.stringify(err)).not.toContain('/host/secret');
      expect(await h.tree()).toEqual(before);
    });

    it('enforces read-before-write and staleness, and counts its own writes as read', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'a\n', 'b.txt': 'b\n' }, { policy: { readBeforeWrite: true } });
      const up = (file: string, from: string, to: string) => patch(`*** Update File: ${file}`, `-${from}`, `+${to}`);
      expect((await h.fail('apply_patch', { patch: up('a.txt', 'a', 'A') })).code).toBe('NOT_READ');
      await h.ok('read_file', { path: 'a.txt' });
      await h.ok('apply_patch', { patch: up('a.txt', 'a', 'A') });
      await h.ok('apply_patch', { patch: up('a.txt', 'A', 'AA') });
      await h.ok('read_file', { path: 'b.txt' });
      await h.put('b.txt', 'changed behind the tools\n');
      const stale = await h.fail('apply_patch', { patch: up('b.txt', 'changed behind the tools', 'x') });
      expect(stale.code).toBe('STALE_FILE');
      expect(await h.text('b.txt')).toBe('changed behind the tools\n');
      expect(await h.text('a.txt')).toBe('AA\n');
      expect((await h.fail('apply_patch', { patch: patch('*** Delete File: b.txt') })).code).toBe('STALE_FILE');
      await h.put('c.txt', 'c\n');
      const over = await h.fail('apply_patch', { patch: patch('*** Update File: a.txt', '*** Move to: c.txt') });
      expect(over.code).toBe('NOT_READ');
      expect(over.message).toContain('c.txt');
      expect(await h.text('b.txt')).toBe('changed behind the tools\n');
      expect(await h.text('c.txt')).toBe('c\n');
    });

    it('resolves bare names in the current folder and multi-part paths from the root', async () => {
      h = await openRootOnly(backend, { 'src/a.ts': 'a\n', 'lib/b.ts': 'b\n' }, { cwd: 'src' });
      await h.ok('apply_patch', {
        patch: patch(
          '*** Update File: a.ts',
          '-a',
          '+A',
          '*** Update File: lib/b.ts',
          '-b',
          '+B',
          '*** Add File: ./c.ts',
          '+c',
        ),
      });
      expect(await h.text('src/a.ts')).toBe('A\n');
      expect(await h.text('lib/b.ts')).toBe('B\n');
      expect(await h.text('src/c.ts')).toBe('c\n');
    });

    it('refuses paths through symbolic links and into reserved folders', async () => {
      if (!backend.symlinks) return;
      h = await openRootOnly(backend, { 'real/a.txt': 'a\n' });
      await h.fs.symlink(`${h.root}/real`, h.abs('link'));
      const before = await h.tree();
      const err = await h.fail('apply_patch', { patch: patch('*** Update File: link/a.txt', '-a', '+b') });
      expect(err.code).toBe('PERMISSION_DENIED');
      expect(err.message).toContain('patch line 2');
      expect((await h.fail('apply_patch', { patch: patch('*** Add File: .sandpit/x', '+x') })).code).toBe(
        'PERMISSION_DENIED',
      );
      expect(await h.tree()).toEqual(before);
    });

    it('refuses more than 100 files and reports invalid arguments exactly', async () => {
      h = await openRootOnly(backend, {});
      const many = Array.from({ length: 101 }, (_, i) => [`*** Add File: f${i}.txt`, '+x']).flat();
      expect((await h.fail('apply_patch', { patch: patch(...many) })).code).toBe('TOO_LARGE');
      const bad = await h.fail('apply_patch', { patch: 'x', dry: true });
      expect(bad.code).toBe('INVALID_ARGUMENTS');
      expect(bad.problems).toEqual([{ path: '/dry', message: 'is not a known argument' }]);
      expect(await h.tree()).toEqual({});
    });

    it('serialises concurrent patches to the same file', async () => {
      h = await openRootOnly(backend, { 'n.txt': '0\n' });
      const bump = (from: number) =>
        h!.ws.call('apply_patch', { patch: patch('*** Update File: n.txt', `-${from}`, `+${from + 1}`) });
      const results = await Promise.all([bump(0), bump(1), bump(2)]);
      expect(results.map((r) => r.ok)).toEqual([true, true, true]);
      expect(await h.text('n.txt')).toBe('3\n');
    });
  });
}
