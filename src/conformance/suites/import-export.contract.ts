import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { open, type Harness } from '../harness.js';

const utf8 = (s: string) => new TextEncoder().encode(s);
/** Bytes the text tools refuse or reshape: a PNG header with NULs, UTF-16 with a BOM, mixed line endings, Latin-1. */
const png = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x00,
]);
const utf16 = new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00, 0x0d, 0x00, 0x0a, 0x00]);
const mixed = utf8('one\r\ntwo\nthree\r\n');
const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]);

const same = (a: Uint8Array | null, b: Uint8Array) =>
  a !== null && a.length === b.length && a.every((x, i) => x === b[i]);

export function importExportContract(backend: BackendUnderTest) {
  describe('importFiles and exportFiles', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('imports any bytes as one change and one snapshot, and exports them exactly', async () => {
      h = await open(backend, { 'keep.txt': 'kept\n' });
      await h.ok('snapshot', { message: 'before import' });
      const files = [
        { path: 'img/logo.png', bytes: png },
        { path: 'docs/win.txt', bytes: utf16 },
        { path: 'mixed.txt', bytes: mixed },
        { path: 'cafe.txt', bytes: latin1 },
        { path: 'keep.txt', bytes: utf8('replaced\n') },
      ];
      const env = await h.ws.importFiles(files);
      if (!env.ok) throw new Error(JSON.stringify(env.error));
      expect(env.result.skipped).toEqual([]);
      expect(env.result.files.map((f) => [f.path, f.created])).toEqual([
        ['img/logo.png', true],
        ['docs/win.txt', true],
        ['mixed.txt', true],
        ['cafe.txt', true],
        ['keep.txt', false],
      ]);
      expect(env.result.change_id).toMatch(/\S/);
      for (const f of files) expect(same(await h.bytes(f.path), f.bytes), f.path).toBe(true);
      // one change in the log and one snapshot for the whole import
      expect(h.ws.changes.list().filter((c) => c.tool === 'import_files')).toHaveLength(1);
      const detail = h.ws.changes.get(env.result.change_id!);
      expect(detail?.files.map((f) => f.path).sort()).toEqual([
        'cafe.txt',
        'docs/win.txt',
        'img/logo.png',
        'keep.txt',
        'mixed.txt',
      ]);
      const snaps = await h.ok('list_snapshots', { limit: 5 });
      expect(snaps.snapshots[0].message).toMatch(/import_files/);
      expect(snaps.snapshots[1].message).toBe('before import');

      const exported = await h.ws.exportFiles();
      expect(exported.files.map((f) => f.path)).toEqual([
        'cafe.txt',
        'docs/win.txt',
        'img/logo.png',
        'keep.txt',
        'mixed.txt',
      ]);
      for (const f of exported.files)
        expect(same(f.bytes, files.find((x) => x.path === f.path)!.bytes), f.path).toBe(true);

      // undo takes the whole import back, binary file included
      await h.ok('undo', {});
      expect(await h.bytes('img/logo.png')).toBeNull();
      expect(await h.text('keep.txt')).toBe('kept\n');
    });

    it('refuses bad paths file by file and writes the rest', async () => {
      h = await open(backend, { 'dir/inner.txt': 'x\n' });
      const before = await h.tree();
      const env = await h.ws.importFiles([
        { path: '../escape.txt', bytes: utf8('no') },
        { path: '.sandpit/git/HEAD', bytes: utf8('no') },
        { path: 'dir', bytes: utf8('no') },
        { path: 'ok.bin', bytes: png },
      ]);
      if (!env.ok) throw new Error(JSON.stringify(env.error));
      expect(env.result.skipped.map((s) => [s.path, s.code])).toEqual([
        ['../escape.txt', 'OUTSIDE_WORKSPACE'],
        ['.sandpit/git/HEAD', 'PERMISSION_DENIED'],
        ['dir', 'NOT_A_FILE'],
      ]);
      expect(env.result.files.map((f) => f.path)).toEqual(['ok.bin']);
      const after = await h.tree();
      delete after['ok.bin'];
      expect(after).toEqual(before);
      expect(JSON.stringify(env)).not.toContain(h.root.slice(1) || '\u0000');
    });

    it('answers a malformed import with INVALID_ARGUMENTS and changes nothing', async () => {
      h = await open(backend, { 'a.txt': 'a\n' });
      const before = await h.tree();
      const env = await h.ws.importFiles('nope' as never);
      expect(env.ok).toBe(false);
      if (!env.ok) expect(env.error.code).toBe('INVALID_ARGUMENTS');
      const partly = await h.ws.importFiles([{ path: 'b.txt', bytes: 'text, not bytes' as never }]);
      expect(partly.ok && partly.result.skipped.map((s) => s.code)).toEqual(['INVALID_ARGUMENTS']);
      expect(partly.ok && partly.result.change_id).toBeNull();
      expect(await h.tree()).toEqual(before);
    });

    it('exports without the shadow repository and lists links as skipped', async () => {
      h = await open(backend, { 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
      await h.ok('write_file', { path: 'c.txt', content: 'c\n' });
      if (backend.symlinks) await h.fs.symlink('a.txt', h.abs('link'));
      const exported = await h.ws.exportFiles();
      expect(exported.files.map((f) => f.path)).toEqual(['a.txt', 'c.txt', 'sub/b.txt']);
      expect(exported.skipped).toEqual(backend.symlinks ? ['link'] : []);
    });
  });
}
