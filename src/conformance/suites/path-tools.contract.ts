import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

export function pathToolsContract(backend: BackendUnderTest) {
  describe('exists, create_directory, move_path, delete_path', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('exists tells files, directories and absence apart', async () => {
      h = await openRootOnly(backend, { 'src/a.ts': 'x' });
      expect(await h.ok('exists', { path: 'src/a.ts' })).toEqual({ path: 'src/a.ts', exists: true, type: 'file' });
      expect(await h.ok('exists', { path: 'src' })).toEqual({ path: 'src', exists: true, type: 'directory' });
      expect(await h.ok('exists', { path: 'src/none.ts' })).toEqual({ path: 'src/none.ts', exists: false, type: null });
      expect(await h.ok('exists', { path: '.' })).toEqual({ path: '.', exists: true, type: 'directory' });
    });

    it('create_directory makes parents and is idempotent', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'x' });
      expect(await h.ok('create_directory', { path: 'a/b/c' })).toEqual({ path: 'a/b/c', created: true });
      expect(await h.ok('create_directory', { path: 'a/b/c' })).toEqual({ path: 'a/b/c', created: false });
      expect((await h.fail('create_directory', { path: 'f.txt' })).code).toBe('ALREADY_EXISTS');
      expect((await h.fail('create_directory', { path: 'f.txt/sub' })).code).toBe('NOT_A_DIRECTORY');
    });

    it('moves a file into a new folder and refuses to clobber without overwrite', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'A\n', 'b.txt': 'B\n' });
      const r = await h.ok('move_path', { from: 'a.txt', to: 'moved/deep/a2.txt' });
      expect(r).toMatchObject({ from: 'a.txt', to: 'moved/deep/a2.txt' });
      expect(await h.text('a.txt')).toBeNull();
      expect(await h.text('moved/deep/a2.txt')).toBe('A\n');
      expect((await h.fail('move_path', { from: 'b.txt', to: 'moved/deep/a2.txt' })).code).toBe('ALREADY_EXISTS');
      await h.ok('move_path', { from: 'b.txt', to: 'moved/deep/a2.txt', overwrite: true });
      expect(await h.text('moved/deep/a2.txt')).toBe('B\n');
      const detail = h.ws.changes.get(r.change_id)!;
      expect(detail.files).toEqual([
        { path: 'moved/deep/a2.txt', from: 'a.txt', status: 'moved', added_lines: 0, removed_lines: 0 },
      ]);
    });

    it('moves a directory with everything in it, never into itself', async () => {
      h = await openRootOnly(backend, { 'd/x.txt': 'x', 'd/e/y.txt': 'y', 'other/z.txt': 'z' });
      expect((await h.fail('move_path', { from: 'd', to: 'd/inner' })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('move_path', { from: 'd', to: 'other' })).code).toBe('ALREADY_EXISTS');
      expect((await h.fail('move_path', { from: 'missing', to: 'x' })).code).toBe('NOT_FOUND');
      await h.ok('move_path', { from: 'd', to: 'n/d2' });
      expect(await h.text('n/d2/e/y.txt')).toBe('y');
      expect((await h.ok('exists', { path: 'd' })).exists).toBe(false);
    });

    it('deletes files, and directories only with recursive', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'f\n', 'd/x.txt': 'x\n', 'd/e/y.txt': 'y\n' });
      const err = await h.fail('delete_path', { path: 'd' });
      expect(err.code).toBe('DIRECTORY_NOT_EMPTY');
      expect(await h.text('d/x.txt')).toBe('x\n');
      expect(await h.ok('delete_path', { path: 'd', recursive: true })).toMatchObject({
        path: 'd',
        deleted: true,
        files_deleted: 2,
      });
      expect((await h.ok('exists', { path: 'd' })).exists).toBe(false);
      const r = await h.ok('delete_path', { path: 'f.txt' });
      expect(h.ws.changes.get(r.change_id)!.files).toEqual([
        { path: 'f.txt', status: 'deleted', added_lines: 0, removed_lines: 1 },
      ]);
      expect((await h.fail('delete_path', { path: 'f.txt' })).code).toBe('NOT_FOUND');
      expect((await h.fail('delete_path', { path: '.', recursive: true })).code).toBe('PERMISSION_DENIED');
      const listed = await h.ok('exists', { path: '.sandpit' }).catch((e) => e);
      expect(String(listed)).toContain('PERMISSION_DENIED');
    });

    it('asks the confirm policy before deleting and changes nothing when refused', async () => {
      const asked: Array<[string[], string]> = [];
      h = await openRootOnly(
        backend,
        { 'keep.txt': 'k' },
        {
          policy: {
            confirm: (paths, action) => {
              asked.push([paths, action]);
              return false;
            },
          },
        },
      );
      expect((await h.fail('delete_path', { path: 'keep.txt' })).code).toBe('CONFIRMATION_DENIED');
      expect(asked).toEqual([[['keep.txt'], 'delete']]);
      expect(await h.text('keep.txt')).toBe('k');
    });
  });
}
