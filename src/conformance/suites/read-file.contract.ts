import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, openRootOnly, type Harness } from '../harness.js';

export function readFileContract(backend: BackendUnderTest) {
  describe('read_file', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    it('reads a whole file with its metadata', async () => {
      h = await openRootOnly(backend, { 'src/a.txt': 'one\ntwo\nthree\n' });
      const r = await h.ok('read_file', { path: 'src/a.txt' });
      expect(r).toMatchObject({
        path: 'src/a.txt',
        content: 'one\ntwo\nthree\n',
        encoding: 'utf-8',
        bom: false,
        eol: 'lf',
        total_lines: 3,
        start_line: 1,
        end_line: 3,
        has_more: false,
        next_start_line: null,
        truncated: false,
        total_chars: 14,
        selected_chars: 14,
      });
      expect(r.sha256).toMatch(/^[0-9a-f]{64}$/);
    });

    it('returns 1-based inclusive windows that concatenate back to the file', async () => {
      const text = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
      h = await openRootOnly(backend, { 'f.txt': text });
      const a = await h.ok('read_file', { path: 'f.txt', start_line: 1, end_line: 4 });
      const b = await h.ok('read_file', { path: 'f.txt', start_line: 5 });
      expect(a).toMatchObject({ start_line: 1, end_line: 4, has_more: true, next_start_line: 5, truncated: false });
      expect(b).toMatchObject({ start_line: 5, end_line: 10, has_more: false, next_start_line: null });
      expect(a.content + b.content).toBe(text);
      const mid = await h.ok('read_file', { path: 'f.txt', start_line: 3, end_line: 3 });
      expect(mid.content).toBe('line 3\n');
    });

    it('caps an unbounded read at 2,000 lines', async () => {
      const text = Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join('\n');
      h = await openRootOnly(backend, { 'big.txt': text });
      const r = await h.ok('read_file', { path: 'big.txt' });
      expect(r).toMatchObject({
        total_lines: 2500,
        end_line: 2000,
        truncated: true,
        has_more: true,
        next_start_line: 2001,
      });
      const rest = await h.ok('read_file', { path: 'big.txt', start_line: 2001, end_line: 2500 });
      expect(rest.truncated).toBe(false);
      expect(r.content + rest.content).toBe(text);
    });

    it('numbers lines cat -n style on request', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'a\nb\nc\n' });
      const r = await h.ok('read_file', { path: 'f.txt', start_line: 2, line_numbers: true });
      expect(r.content).toBe('     2\tb\n     3\tc\n');
    });

    it('stops at max_chars, possibly inside a line, never inside an emoji', async () => {
      h = await openRootOnly(backend, { 'e.txt': 'ab😀cd\nsecond\n' });
      const r = await h.ok('read_file', { path: 'e.txt', max_chars: 3 });
      expect(r).toMatchObject({
        content: 'ab😀',
        selected_chars: 3,
        truncated: true,
        end_line: 1,
        has_more: true,
        next_start_line: 1,
      });
      const two = await h.ok('read_file', { path: 'e.txt', max_chars: 2 });
      expect(two.content).toBe('ab');
      const whole = await h.ok('read_file', { path: 'e.txt', max_chars: 6 });
      expect(whole).toMatchObject({ content: 'ab😀cd\n', end_line: 1, next_start_line: 2, total_chars: 13 });
    });

    it('continues a window that stopped inside a line where it stopped, never repeating it', async () => {
      const line = 'x'.repeat(45) + '😀' + 'y'.repeat(20);
      h = await openRootOnly(backend, { 'long.txt': `${line}\nnext\n` });
      let got = '';
      let args: Record<string, unknown> = { path: 'long.txt', start_line: 1, end_line: 1, max_chars: 20 };
      const seen = new Set<string>();
      for (let i = 0; i < 10; i++) {
        const r = await h.ok('read_file', args);
        const key = `${r.start_line}:${(args.start_char as number | undefined) ?? 1}`;
        expect(seen.has(key)).toBe(false);
        seen.add(key);
        got += r.content;
        if (!r.has_more || r.next_start_line !== 1) break;
        expect(r.next_start_char).toBeGreaterThan(1);
        args = { ...args, start_char: r.next_start_char };
      }
      expect(got).toBe(`${line}\n`);
      const last = await h.ok('read_file', { path: 'long.txt', start_line: 1, max_chars: 10 });
      expect(last).toMatchObject({ next_start_line: 1, next_start_char: 11 });
      const whole = await h.ok('read_file', { path: 'long.txt', max_chars: 67 });
      expect(whole).toMatchObject({ next_start_line: 2, next_start_char: null });
      const into = await h.ok('read_file', { path: 'long.txt', max_chars: 70 });
      expect(into).toMatchObject({ end_line: 2, next_start_line: 2, next_start_char: 4 });
      const past = await h.fail('read_file', { path: 'long.txt', start_line: 2, start_char: 6 });
      expect(past.code).toBe('INVALID_ARGUMENTS');
    });

    it('reports CRLF files and returns their content with \\n', async () => {
      h = await openRootOnly(backend, { 'w.txt': 'a\r\nb\r\n', 'm.txt': 'a\r\nb\nc', 'n.txt': 'single' });
      expect(await h.ok('read_file', { path: 'w.txt' })).toMatchObject({
        eol: 'crlf',
        content: 'a\nb\n',
        total_lines: 2,
      });
      expect(await h.ok('read_file', { path: 'm.txt' })).toMatchObject({
        eol: 'mixed',
        content: 'a\nb\nc',
        total_lines: 3,
      });
      expect(await h.ok('read_file', { path: 'n.txt' })).toMatchObject({ eol: 'none', total_lines: 1 });
    });

    it('detects BOMs and decodes UTF-16', async () => {
      const utf16 = new Uint8Array([0xff, 0xfe, ...[...'hi\n'].flatMap((c) => [c.charCodeAt(0), 0])]);
      h = await openRootOnly(backend, {
        'bom.txt': new Uint8Array([0xef, 0xbb, 0xbf, ...enc('x\n')]),
        'u16.txt': utf16,
      });
      expect(await h.ok('read_file', { path: 'bom.txt' })).toMatchObject({
        content: 'x\n',
        encoding: 'utf-8',
        bom: true,
      });
      expect(await h.ok('read_file', { path: 'u16.txt' })).toMatchObject({
        content: 'hi\n',
        encoding: 'utf-16le',
        bom: true,
      });
    });

    it('decodes strictly and reads other encodings only when named', async () => {
      h = await openRootOnly(backend, { 'l1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
      const err = await h.fail('read_file', { path: 'l1.txt' });
      expect(err.code).toBe('DECODE_ERROR');
      expect(err.message).toContain('offset 3');
      expect(await h.ok('read_file', { path: 'l1.txt', encoding: 'latin1' })).toMatchObject({
        content: 'café\n',
        encoding: 'latin1',
      });
    });

    it('refuses binary, Office/PDF, missing files and directories with their codes', async () => {
      h = await openRootOnly(backend, {
        'bin.dat': new Uint8Array([1, 2, 0, 3]),
        'doc.pdf': '%PDF-1.4',
        'dir/x.txt': 'x',
      });
      expect((await h.fail('read_file', { path: 'bin.dat' })).code).toBe('BINARY_FILE');
      expect((await h.fail('read_file', { path: 'doc.pdf' })).code).toBe('UNSUPPORTED_FILE_TYPE');
      expect((await h.fail('read_file', { path: 'nope.txt' })).code).toBe('NOT_FOUND');
      expect((await h.fail('read_file', { path: 'dir' })).code).toBe('NOT_A_FILE');
    });

    it('refuses reads over the size limit unless a window is given', async () => {
      h = await openRootOnly(
        backend,
        { 'big.txt': 'x'.repeat(100) + '\nsecond\n' },
        { policy: { limits: { maxReadBytes: 50 } } },
      );
      expect((await h.fail('read_file', { path: 'big.txt' })).code).toBe('TOO_LARGE');
      expect((await h.ok('read_file', { path: 'big.txt', start_line: 2 })).content).toBe('second\n');
    });

    it('rejects bad windows and bad arguments exactly', async () => {
      h = await openRootOnly(backend, { 'f.txt': 'a\nb\n' });
      expect((await h.fail('read_file', { path: 'f.txt', start_line: 5 })).code).toBe('INVALID_ARGUMENTS');
      expect((await h.fail('read_file', { path: 'f.txt', start_line: 2, end_line: 1 })).code).toBe('INVALID_ARGUMENTS');
      const bad = await h.fail('read_file', { path: 'f.txt', start_line: 'one', colour: 'red' });
      expect(bad.code).toBe('INVALID_ARGUMENTS');
      expect(bad.problems).toEqual(
        expect.arrayContaining([
          { path: '/start_line', message: 'must be integer' },
          { path: '/colour', message: 'is not a known argument' },
        ]),
      );
      expect(bad.problems).toHaveLength(2);
      expect((await h.fail('read_file', {})).problems).toEqual([{ path: '/path', message: 'is required but missing' }]);
    });
  });
}
