import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, openRootOnly, type Harness } from '../harness.js';

export function writeToolsContract(backend: BackendUnderTest) {
  describe('write_file and append_file', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('creates a file and its parent folders', async () => {
      h = await openRootOnly(backend);
      const r = await h.ok('write_file', { path: 'a/b/c.txt', content: 'one\ntwo\n' });
      expect(r).toMatchObject({ path: 'a/b/c.txt', bytes: 8, created: true, added_lines: 2, removed_lines: 0 });
      expect(r.change_id).toMatch(/^chg_/);
      expect(await h.text('a/b/c.txt')).toBe('one\ntwo\n');
    });

    it('requires content but accepts an explicit empty string', async () => {
      h = await openRootOnly(backend, { 'keep.txt': 'keep\n' });
      const err = await h.fail('write_file', { path: 'keep.txt' });
      expect(err.code).toBe('INVALID_ARGUMENTS');
      expect(err.problems).toEqual([{ path: '/content', message: 'is required but missing' }]);
      expect(await h.text('keep.txt')).toBe('keep\n');
      expect(await h.ok('write_file', { path: 'empty.txt', content: '' })).toMatchObject({ bytes: 0, created: true });
      expect(await h.text('empty.txt')).toBe('');
    });

    it('overwrites by default, refuses with overwrite:false, and counts changed lines', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'a\nb\nc\n' });
      expect((await h.fail('write_file', { path: 'f.txt', content: 'x', overwrite: false })).code).toBe(
        'ALREADY_EXISTS',
      );
      const r = await h.ok('write_file', { path: 'f.txt', content: 'a\nB\nc\nd\n' });
      expect(r).toMatchObject({ created: false, added_lines: 2, removed_lines: 1 });
    });

    it('refuses to write a directory or through a file', async () => {
      h = await openRootOnly(backend, { 'dir/x.txt': 'x', 'file.txt': 'f' });
      expect((await h.fail('write_file', { path: 'dir', content: 'x' })).code).toBe('NOT_A_FILE');
      expect((await h.fail('write_file', { path: 'file.txt/inner.txt', content: 'x' })).code).toBe('NOT_A_DIRECTORY');
      expect(await h.text('file.txt')).toBe('f');
    });

    it("keeps an existing file's encoding and BOM", async () => {
      h = await openRootOnly(backend, { 'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...enc('old\n')]) });
      await h.ok('write_file', { path: 'bom.txt', content: 'new\n' });
      expect([...(await h.bytes('bom.txt'))!]).toEqual([0xef, 0xbb, 0xbf, ...enc('new\n')]);
    });

    it('writes a new file in a named encoding', async () => {
      h = await openRootOnly(backend);
      await h.ok('write_file', { path: 'l.txt', content: 'café', encoding: 'latin1' });
      expect([...(await h.bytes('l.txt'))!]).toEqual([0x63, 0x61, 0x66, 0xe9]);
      expect((await h.fail('write_file', { path: 'm.txt', content: '😀', encoding: 'latin1' })).code).toBe(
        'INVALID_ARGUMENTS',
      );
      expect(await h.bytes('m.txt')).toBeNull();
    });

    it('appends, creating the file when missing', async () => {
      h = await openRootOnly(backend, { 'log.txt': 'one\r\n' });
      expect(await h.ok('append_file', { path: 'new/notes.md', content: '# Notes' })).toMatchObject({
        created: true,
        added_lines: 1,
      });
      expect(await h.text('new/notes.md')).toBe('# Notes');
      expect(await h.ok('append_file', { path: 'log.txt', content: 'two\nthree\n' })).toMatchObject({
        created: false,
        added_lines: 2,
      });
      expect(await h.text('log.txt')).toBe('one\r\ntwo\r\nthree\r\n');
      expect((await h.fail('append_file', { path: 'x.txt' })).code).toBe('INVALID_ARGUMENTS');
    });

    it('refuses to append to a binary file', async () => {
      h = await openRootOnly(backend, { 'b.bin': new Uint8Array([0, 1, 2]) });
      expect((await h.fail('append_file', { path: 'b.bin', content: 'x' })).code).toBe('BINARY_FILE');
      expect([...(await h.bytes('b.bin'))!]).toEqual([0, 1, 2]);
    });
  });
}
