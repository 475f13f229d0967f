import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { openRootOnly, type Harness } from '../harness.js';

export function fileBytesContract(backend: BackendUnderTest) {
  describe('file_bytes', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('gives the hash and size, and every verdict', async () => {
      h = await openRootOnly(backend, {
        'lit.txt': 'line one\nline two\n',
        'esc.json': '{"text": "line one\\nline two\\n"}',
        'bad.txt': new Uint8Array([0x61, 0xff, 0x62]),
      });
      const ok = await h.ok('file_bytes', { path: 'lit.txt', expected: 'line one\nline two' });
      expect(ok).toMatchObject({
        path: 'lit.txt',
        size_bytes: 18,
        encoding_ok: true,
        verdict: 'ok',
        occurrence_count: { literal: 1, escaped: 0 },
      });
      expect(ok.occurrences.literal).toEqual([{ line: 1, column: 1 }]);
      const read = await h.ok('read_file', { path: 'lit.txt' });
      expect(ok.sha256).toBe(read.sha256);
      expect(await h.ok('file_bytes', { path: 'esc.json', expected: 'line one\nline two' })).toMatchObject({
        verdict: 'escaped_where_literal_expected',
      });
      expect(
        await h.ok('file_bytes', { path: 'esc.json', expected: 'line one\nline two', expect_escaped: true }),
      ).toMatchObject({ verdict: 'ok' });
      expect(
        await h.ok('file_bytes', { path: 'lit.txt', expected: 'line one\nline two', expect_escaped: true }),
      ).toMatchObject({ verdict: 'literal_where_escaped_expected' });
      expect(await h.ok('file_bytes', { path: 'bad.txt' })).toMatchObject({
        verdict: 'decode_error',
        encoding_ok: false,
        size_bytes: 3,
      });
    });

    it('shows how far a mismatch got', async () => {
      h = await openRootOnly(backend, { 'a.txt': 'alpha\nbeta gamma\n' });
      const r = await h.ok('file_bytes', { path: 'a.txt', expected: 'beta delta' });
      expect(r.verdict).toBe('mismatch');
      expect(r.mismatch).toMatchObject({
        matched_chars: 5,
        line: 2,
        column: 6,
        expected_next: 'delta',
        found_next: 'gamma\n',
      });
    });
  });
}
