import { toHex } from '../../fs/hash/hex.js';
import { afterEach, describe, expect, it } from '../api.js';
import type { BackendUnderTest } from '../backend.js';
import { enc, openRootOnly, type Harness } from '../harness.js';

const BOM8 = [0xef, 0xbb, 0xbf];

function utf16le(text: string, bom = true): Uint8Array {
  const out: number[] = bom ? [0xff, 0xfe] : [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out.push(c & 0xff, c >> 8);
  }
  return new Uint8Array(out);
}

function utf16be(text: string): Uint8Array {
  const out: number[] = [0xfe, 0xff];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out.push(c >> 8, c & 0xff);
  }
  return new Uint8Array(out);
}

const cat = (...parts: Array<Uint8Array | number[]>) => new Uint8Array(parts.flatMap((p) => [...p]));
const hex = (b: Uint8Array | null) => (b === null ? null : toHex(b));

export function losslessContract(backend: BackendUnderTest) {
  describe('lossless text', () => {
    let h: Harness;
    afterEach(async () => h?.cleanup());

    async function expectBytes(rel: string, expected: Uint8Array | string) {
      expect(hex(await h.bytes(rel)), rel).toBe(hex(typeof expected === 'string' ? enc(expected) : expected));
    }

    describe('edit_file changes only the bytes it means to', () => {
      it('keeps CRLF everywhere, in the edited line and in new lines', async () => {
        h = await openRootOnly(backend, { 'w.txt': 'one\r\ntwo\r\nthree\r\n' });
        await h.ok('edit_file', { path: 'w.txt', old_text: 'two', new_text: 'TWO' });
        await expectBytes('w.txt', 'one\r\nTWO\r\nthree\r\n');
        await h.ok('edit_file', { path: 'w.txt', old_text: 'TWO\nthree', new_text: '2a\n2b\nthree' });
        await expectBytes('w.txt', 'one\r\n2a\r\n2b\r\nthree\r\n');
      });

      it('keeps a mixed file mixed: every untouched line keeps its own ending', async () => {
        const text = 'a\r\nb\nc\r\nd\ne\r\n';
        h = await openRootOnly(backend, { 'm.txt': text });
        await h.ok('edit_file', { path: 'm.txt', old_text: 'c', new_text: 'C' });
        await expectBytes('m.txt', 'a\r\nb\nC\r\nd\ne\r\n');
        await h.ok('edit_file', { path: 'm.txt', old_text: 'd', new_text: 'D' });
        await expectBytes('m.txt', 'a\r\nb\nC\r\nD\ne\r\n');
      });

      it('keeps a UTF-8 BOM and the absence of a final newline', async () => {
        h = await openRootOnly(backend, { 'b.txt': cat(BOM8, enc('x = 1\r\ny = 2')), 'n.txt': 'first\nlast' });
        await h.ok('edit_file', { path: 'b.txt', old_text: 'y = 2', new_text: 'y = 3' });
        await expectBytes('b.txt', cat(BOM8, enc('x = 1\r\ny = 3')));
        await h.ok('edit_file', { path: 'n.txt', old_text: 'first', new_text: 'FIRST' });
        await expectBytes('n.txt', 'FIRST\nlast');
        await h.ok('edit_file', { path: 'n.txt', old_text: 'last', new_text: 'LAST' });
        await expectBytes('n.txt', 'FIRST\nLAST');
      });

      it('keeps UTF-16 LE and BE with their BOMs and CRLF', async () => {
        h = await openRootOnly(backend, {
          'le.txt': utf16le('héllo\r\nwörld 😀\r\n'),
          'be.txt': utf16be('one\ntwo\n'),
        });
        expect(await h.ok('read_file', { path: 'le.txt' })).toMatchObject({
          encoding: 'utf-16le',
          bom: true,
          eol: 'crlf',
          content: 'héllo\nwörld 😀\n',
        });
        await h.ok('edit_file', { path: 'le.txt', old_text: 'wörld', new_text: 'wörld!' });
        await expectBytes('le.txt', utf16le('héllo\r\nwörld! 😀\r\n'));
        await h.ok('edit_file', { path: 'be.txt', old_text: 'two', new_text: 'deux' });
        await expectBytes('be.txt', utf16be('one\ndeux\n'));
      });

      it('an edit of one line leaves every other byte identical, whatever the file holds', async () => {
        const lines = Array.from({ length: 40 }, (_, i) => {
          const eol = i % 3 === 0 ? '\r\n' : '\n';
          return `${i % 5 === 0 ? '\t' : '  '}line ${i} ünï ${i % 7 === 0 ? '😀 ' : ''}trailing   ${eol}`;
        });
        const body = `${lines.join('')}no newline at the end \u00a0`;
        h = await openRootOnly(backend, {
          'mixed.txt': enc(body),
          'bom.txt': cat(BOM8, enc(body)),
          'le.txt': utf16le(body),
        });
        for (const [rel, encode] of [
          ['mixed.txt', (s: string) => enc(s)],
          ['bom.txt', (s: string) => cat(BOM8, enc(s))],
          ['le.txt', (s: string) => utf16le(s)],
        ] as const) {
          const before = (await h.bytes(rel))!;
          await h.ok('edit_file', {
            path: rel,
            old_text: 'line 21 ünï 😀 trailing   \n',
            new_text: 'line twenty-one\n',
          });
          const after = (await h.bytes(rel))!;
          const target = lines[21]!;
          const expected = body.replace(target, target.replace('line 21 ünï 😀 trailing   ', 'line twenty-one'));
          expect(hex(after), rel).toBe(hex(encode(expected)));
          const prefix = encode(lines.slice(0, 21).join('')).length;
          const suffix =
            encode(lines.slice(22).join('') + 'no newline at the end \u00a0').length -
            (rel === 'le.txt' ? 2 : rel === 'bom.txt' ? 3 : 0);
          expect(hex(after.subarray(0, prefix))).toBe(hex(before.subarray(0, prefix)));
          expect(hex(after.subarray(after.length - suffix))).toBe(hex(before.subarray(before.length - suffix)));
        }
      });

      it('a failed edit (no match, ambiguous) leaves the bytes alone', async () => {
        const bytes = cat(BOM8, enc('a\r\na\nb'));
        h = await openRootOnly(backend, { 'f.txt': bytes });
        expect((await h.fail('edit_file', { path: 'f.txt', old_text: 'a', new_text: 'z' })).code).toBe(
          'AMBIGUOUS_MATCH',
        );
        expect((await h.fail('edit_file', { path: 'f.txt', old_text: 'q', new_text: 'z' })).code).toBe('NO_MATCH');
        await expectBytes('f.txt', bytes);
      });
    });

    describe("write_file and append_file keep the file's style", () => {
      it('write_file with \\n content over a CRLF file keeps CRLF, and keeps a missing final newline missing', async () => {
        h = await openRootOnly(backend, { 'w.txt': 'a\r\nb\r\n', 'n.txt': 'a\r\nb' });
        await h.ok('write_file', { path: 'w.txt', content: 'a\nb\nc\n' });
        await expectBytes('w.txt', 'a\r\nb\r\nc\r\n');
        await h.ok('write_file', { path: 'n.txt', content: 'a\nb\nc' });
        await expectBytes('n.txt', 'a\r\nb\r\nc');
        expect(await h.ok('read_file', { path: 'n.txt' })).toMatchObject({ eol: 'crlf', content: 'a\nb\nc' });
      });

      it('write_file over a mixed file keeps the endings of unchanged lines', async () => {
        h = await openRootOnly(backend, { 'm.txt': 'keep1\r\nkeep2\nold\r\nkeep3\n' });
        await h.ok('write_file', { path: 'm.txt', content: 'keep1\nkeep2\nnew\nkeep3\n' });
        const out = new TextDecoder().decode((await h.bytes('m.txt'))!);
        expect(out.startsWith('keep1\r\nkeep2\n')).toBe(true);
        expect(out.endsWith('keep3\n')).toBe(true);
        expect(out).toMatch(/^keep1\r\nkeep2\nnew\r?\nkeep3\n$/);
      });

      it('write_file keeps a BOM and UTF-16, and writes a named encoding for a new file', async () => {
        h = await openRootOnly(backend, { 'b.txt': cat(BOM8, enc('old\n')), 'le.txt': utf16le('old\r\n') });
        await h.ok('write_file', { path: 'b.txt', content: 'new\n' });
        await expectBytes('b.txt', cat(BOM8, enc('new\n')));
        await h.ok('write_file', { path: 'le.txt', content: 'new 😀\n' });
        await expectBytes('le.txt', utf16le('new 😀\r\n'));
        await h.ok('write_file', { path: 'l1.txt', content: 'café\n', encoding: 'latin1' });
        await expectBytes('l1.txt', new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a]));
      });

      it('latin1 is read and written only when named, and refuses what it cannot hold', async () => {
        const l1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a, 0xff, 0x0a]);
        h = await openRootOnly(backend, { 'l1.txt': l1 });
        expect((await h.fail('read_file', { path: 'l1.txt' })).code).toBe('DECODE_ERROR');
        expect(await h.ok('read_file', { path: 'l1.txt', encoding: 'latin1' })).toMatchObject({
          content: 'café\nÿ\n',
          encoding: 'latin1',
          bom: false,
          eol: 'mixed',
        });
        expect((await h.fail('edit_file', { path: 'l1.txt', old_text: 'café', new_text: 'cafe' })).code).toBe(
          'DECODE_ERROR',
        );
        await expectBytes('l1.txt', l1);
        expect((await h.fail('write_file', { path: 'new.txt', content: 'emoji 😀', encoding: 'latin1' })).code).toBe(
          'INVALID_ARGUMENTS',
        );
        expect(await h.bytes('new.txt')).toBeNull();
        await h.ok('write_file', { path: 'l1.txt', content: 'naïve\n', encoding: 'latin1' });
        await expectBytes('l1.txt', new Uint8Array([0x6e, 0x61, 0xef, 0x76, 0x65, 0x0a]));
      });

      // write-file.ts decodes the old bytes without args.encoding, so a latin1 file loses its line endings
      it('write_file over a latin1 file named as latin1 keeps its CRLF endings', async () => {
        h = await openRootOnly(backend, { 'l1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]) });
        await h.ok('write_file', { path: 'l1.txt', content: 'naïve\ncafé\n', encoding: 'latin1' });
        await expectBytes(
          'l1.txt',
          new Uint8Array([0x6e, 0x61, 0xef, 0x76, 0x65, 0x0d, 0x0a, 0x63, 0x61, 0x66, 0xe9, 0x0d, 0x0a]),
        );
      });

      it('refuses a lone surrogate instead of writing U+FFFD, and changes nothing', async () => {
        h = await openRootOnly(backend, { 'f.txt': 'keep\n' });
        for (const [tool, args] of [
          ['write_file', { path: 'f.txt', content: 'bad \ud800\n' }],
          ['write_file', { path: 'new.txt', content: '\udc00' }],
          ['append_file', { path: 'f.txt', content: '\ud83d' }],
          ['edit_file', { path: 'f.txt', old_text: 'keep', new_text: 'k\ud800' }],
        ] as const) {
          expect((await h.fail(tool, args)).code, tool).toBe('INVALID_ARGUMENTS');
        }
        await expectBytes('f.txt', 'keep\n');
        expect(await h.bytes('new.txt')).toBeNull();
      });

      it('append_file keeps CRLF, LF, the BOM and UTF-16, and adds nothing between old and new', async () => {
        h = await openRootOnly(backend, {
          'w.txt': 'a\r\n',
          'l.txt': 'a\n',
          'n.txt': 'a',
          'b.txt': cat(BOM8, enc('a\r\n')),
          'le.txt': utf16le('a\r\n'),
        });
        await h.ok('append_file', { path: 'w.txt', content: 'b\nc\n' });
        await expectBytes('w.txt', 'a\r\nb\r\nc\r\n');
        await h.ok('append_file', { path: 'l.txt', content: 'b\nc' });
        await expectBytes('l.txt', 'a\nb\nc');
        await h.ok('append_file', { path: 'n.txt', content: 'b\n' });
        await expectBytes('n.txt', 'ab\n');
        await h.ok('append_file', { path: 'b.txt', content: 'b\n' });
        await expectBytes('b.txt', cat(BOM8, enc('a\r\nb\r\n')));
        await h.ok('append_file', { path: 'le.txt', content: '😀\n' });
        await expectBytes('le.txt', utf16le('a\r\n😀\r\n'));
      });
    });

    describe('read_file never splits a character', () => {
      it('stops at max_chars on code points: a 4-byte emoji at the boundary comes whole or not at all', async () => {
        h = await openRootOnly(backend, {
          'e.txt': 'a😀😀b\r\n😀\n',
          'le.txt': utf16le('x😀y\n'),
          'bom.txt': cat(BOM8, enc('😀z\n')),
        });
        for (const [max, content] of [
          [1, 'a'],
          [2, 'a😀'],
          [3, 'a😀😀'],
          [4, 'a😀😀b'],
          [5, 'a😀😀b\n'],
          [6, 'a😀😀b\n😀'],
        ] as const) {
          const r = await h.ok('read_file', { path: 'e.txt', max_chars: max });
          expect(r.content, `max_chars ${max}`).toBe(content);
          expect(r.selected_chars).toBe([...content].length);
          expect(r.content.isWellFormed()).toBe(true);
        }
        expect(await h.ok('read_file', { path: 'e.txt' })).toMatchObject({ total_chars: 7, eol: 'mixed' });
        expect((await h.ok('read_file', { path: 'le.txt', max_chars: 2 })).content).toBe('x😀');
        expect((await h.ok('read_file', { path: 'le.txt', max_chars: 1 })).content).toBe('x');
        expect((await h.ok('read_file', { path: 'bom.txt', max_chars: 1 })).content).toBe('😀');
        const rest = await h.ok('read_file', { path: 'e.txt', start_line: 2, max_chars: 1 });
        expect(rest.content).toBe('😀');
      });

      it('reads the bytes it reports: sha256 and content survive a round trip through write_file', async () => {
        const bytes = cat(BOM8, enc('α\r\nβ 😀\r\nγ'));
        h = await openRootOnly(backend, { 'f.txt': bytes });
        const r = await h.ok('read_file', { path: 'f.txt' });
        expect(r).toMatchObject({ bom: true, eol: 'crlf', content: 'α\nβ 😀\nγ' });
        await h.ok('write_file', { path: 'f.txt', content: r.content, expected_sha256: r.sha256 });
        await expectBytes('f.txt', bytes);
        expect((await h.ok('file_bytes', { path: 'f.txt' })).sha256).toBe(r.sha256);
      });
    });
  });
}
