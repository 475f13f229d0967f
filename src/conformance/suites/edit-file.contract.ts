import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

export function editFileContract(backend: BackendUnderTest) {
  describe('edit_file', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('replaces one exact match and reports where', async () => {
      h = await openRootOnly(backend, { 'a.ts': 'const a = 1;\nconst b = 2;\nconst c = 3;\n' });
      const r = await h.ok('edit_file', {
        path: 'a.ts',
        old_text: 'const b = 2;',
        new_text: 'const b = 20;\nconst bb = 21;',
      });
      expect(r).toMatchObject({ path: 'a.ts', replacements: 1, first_line: 2, added_lines: 2, removed_lines: 1 });
      expect(await h.text('a.ts')).toBe('const a = 1;\nconst b = 20;\nconst bb = 21;\nconst c = 3;\n');
    });

    it('refuses an ambiguous match listing the lines, and replaces all on request', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'x\ny\nx\nz\nx\n' });
      const err = await h.fail('edit_file', { path: 'a.txt', old_text: 'x', new_text: 'w' });
      expect(err).toMatchObject({ code: 'AMBIGUOUS_MATCH', lines: [1, 3, 5] });
      expect(err.message).toContain('lines 1, 3 and 5');
      expect(await h.text('a.txt')).toBe('x\ny\nx\nz\nx\n');
      expect(await h.ok('edit_file', { path: 'a.txt', old_text: 'x', new_text: 'w', replace_all: true })).toMatchObject(
        { replacements: 3, first_line: 1 },
      );
      expect(await h.text('a.txt')).toBe('w\ny\nw\nz\nw\n');
    });

    it('points at the nearest whitespace-insensitive match when nothing matches exactly', async () => {
      h = await openRootOnly(backend, { 'p.py': 'def f():\n    if x:\n        return 1\n' });
      const err = await h.fail('edit_file', {
        path: 'p.py',
        old_text: 'if x:\n  return 1',
        new_text: 'if y:\n  return 2',
      });
      expect(err.code).toBe('NO_MATCH');
      expect(err.near_line).toBe(2);
      expect(err.hint).toContain('line 2');
      expect(await h.text('p.py')).toBe('def f():\n    if x:\n        return 1\n');
      const none = await h.fail('edit_file', { path: 'p.py', old_text: 'nothing like it', new_text: 'x' });
      expect(none.code).toBe('NO_MATCH');
    });

    it('matches \\n against CRLF and keeps CRLF in the new lines', async () => {
      h = await openRootOnly(backend, { 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
      await h.ok('edit_file', { path: 'w.txt', old_text: 'one\ntwo', new_text: 'ONE\nTWO\nTWO-B' });
      expect(await h.text('w.txt')).toBe('ONE\r\nTWO\r\nTWO-B\r\nthree\r\n');
    });

    it('refuses empty old_text, identical texts, missing files and binary files', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'a\n', 'b.bin': new Uint8Array([0, 1]) });
      expect((await h.fail('edit_file', { path: 'a.txt', old_text: '', new_text: 'x' })).code).toBe(
        'INVALID_ARGUMENTS',
      );
      expect((await h.fail('edit_file', { path: 'a.txt', old_text: 'a', new_text: 'a' })).code).toBe(
        'INVALID_ARGUMENTS',
      );
      expect((await h.fail('edit_file', { path: 'nope.txt', old_text: 'a', new_text: 'b' })).code).toBe('NOT_FOUND');
      expect((await h.fail('edit_file', { path: 'b.bin', old_text: 'a', new_text: 'b' })).code).toBe('BINARY_FILE');
    });
  });
}
