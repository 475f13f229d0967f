import { describe, expect, it } from 'vitest';
import {
  decodeText,
  detectBom,
  encodeText,
  isDecodeFailure,
  looksBinary,
  type DecodedText,
} from '../../src/text/codec.js';

const bytes = (...b: number[]) => new Uint8Array(b);
const enc = (s: string) => new TextEncoder().encode(s);

function decoded(value: ReturnType<typeof decodeText>): DecodedText {
  if (isDecodeFailure(value)) throw new Error(`did not decode: ${JSON.stringify(value)}`);
  return value;
}

describe('codec', () => {
  it('detects the three BOMs', () => {
    expect(detectBom(bytes(0xef, 0xbb, 0xbf, 0x61))).toEqual({ encoding: 'utf-8', length: 3 });
    expect(detectBom(bytes(0xff, 0xfe))).toEqual({ encoding: 'utf-16le', length: 2 });
    expect(detectBom(bytes(0xfe, 0xff, 0, 0x61))).toEqual({ encoding: 'utf-16be', length: 2 });
    expect(detectBom(bytes(0xef, 0xbb))).toBeNull();
    expect(detectBom(enc('plain'))).toBeNull();
  });

  it('decodes UTF-8 strictly, naming the first bad byte', () => {
    expect(decodeText(bytes(0x63, 0x61, 0x66, 0xe9, 0x0a))).toEqual({
      kind: 'decode',
      encoding: 'utf-8',
      byteOffset: 3,
    });
    // a 4-byte sequence cut short at the end of the file
    expect(decodeText(bytes(0x61, 0x62, 0xf0, 0x9f, 0x98))).toEqual({
      kind: 'decode',
      encoding: 'utf-8',
      byteOffset: 2,
    });
    // a 4-byte sequence broken in the middle
    expect(decodeText(bytes(0x61, 0xf0, 0x9f, 0x41, 0x42))).toEqual({
      kind: 'decode',
      encoding: 'utf-8',
      byteOffset: 1,
    });
    // overlong encodings and lone continuation bytes are refused, never replaced with U+FFFD
    expect(decodeText(bytes(0xc0, 0xaf))).toMatchObject({ kind: 'decode', byteOffset: 0 });
    expect(decodeText(bytes(0x61, 0x80))).toMatchObject({ kind: 'decode', byteOffset: 1 });
    // a BOM counts in the offset
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x61, 0xff))).toMatchObject({ kind: 'decode', byteOffset: 4 });
  });

  it('decodes a BOM file without the BOM in the text and reports it', () => {
    expect(decoded(decodeText(bytes(0xef, 0xbb, 0xbf, ...enc('x😀\n'))))).toEqual({
      text: 'x😀\n',
      encoding: 'utf-8',
      bom: true,
    });
    expect(decoded(decodeText(bytes(0xff, 0xfe, 0x61, 0, 0x0a, 0)))).toEqual({
      text: 'a\n',
      encoding: 'utf-16le',
      bom: true,
    });
    expect(decoded(decodeText(bytes(0xfe, 0xff, 0, 0x61)))).toEqual({ text: 'a', encoding: 'utf-16be', bom: true });
    // a BOM wins over a named encoding
    expect(decoded(decodeText(bytes(0xff, 0xfe, 0x61, 0), 'latin1'))).toMatchObject({ encoding: 'utf-16le' });
  });

  it('refuses UTF-16 with an odd byte count or a lone surrogate', () => {
    expect(decodeText(bytes(0xff, 0xfe, 0x61, 0, 0x62))).toEqual({
      kind: 'decode',
      encoding: 'utf-16le',
      byteOffset: 4,
    });
    expect(decodeText(bytes(0xff, 0xfe, 0x61, 0x00, 0x00, 0xd8, 0x61, 0x00))).toEqual({
      kind: 'decode',
      encoding: 'utf-16le',
      byteOffset: 4,
    });
    expect(decodeText(bytes(0xfe, 0xff, 0x00, 0x61, 0xdc, 0x00))).toEqual({
      kind: 'decode',
      encoding: 'utf-16be',
      byteOffset: 4,
    });
    expect(decodeText(bytes(0x3d, 0xd8, 0x00, 0xde, 0x00, 0xd8), 'utf-16le')).toEqual({
      kind: 'decode',
      encoding: 'utf-16le',
      byteOffset: 4,
    });
  });

  it('marks NUL bytes in the first 8 KiB as binary, but not in UTF-16 or later', () => {
    expect(looksBinary(bytes(1, 2, 0, 3))).toBe(true);
    expect(decodeText(bytes(0x61, 0x00, 0x62))).toEqual({ kind: 'binary' });
    expect(decodeText(bytes(0x61, 0x00), 'utf-16le')).toMatchObject({ text: 'a', encoding: 'utf-16le', bom: false });
    const late = new Uint8Array(8192 + 1).fill(0x61);
    late[8192] = 0;
    expect(looksBinary(late)).toBe(false);
  });

  it('reads latin1 only when named, every byte to its code point', () => {
    const all = new Uint8Array(255).map((_, i) => i + 1);
    const text = decoded(decodeText(all, 'latin1'));
    expect(text.encoding).toBe('latin1');
    expect([...text.text].map((c) => c.charCodeAt(0))).toEqual([...all]);
    expect(encodeText(text.text, 'latin1', false)).toEqual(all);
    expect(encodeText('€', 'latin1', false)).toBeNull();
  });

  it('round-trips every encoding byte for byte, with and without a BOM', () => {
    const text = 'héllo\r\nwörld 😀\n';
    for (const encoding of ['utf-8', 'utf-16le', 'utf-16be'] as const) {
      for (const bom of [true, false]) {
        const out = encodeText(text, encoding, bom)!;
        expect(decoded(decodeText(out, encoding))).toEqual({ text, encoding, bom });
        expect(encodeText(decoded(decodeText(out, encoding)).text, encoding, bom)).toEqual(out);
      }
    }
    expect(encodeText('a', 'utf-16be', true)).toEqual(bytes(0xfe, 0xff, 0, 0x61));
    expect(encodeText('a', 'utf-8', true)).toEqual(bytes(0xef, 0xbb, 0xbf, 0x61));
  });

  it('refuses to encode a lone surrogate rather than write U+FFFD', () => {
    expect(encodeText('a\ud800b', 'utf-16le', false)).toBeNull();
    expect(encodeText('a\ud800b', 'utf-8', false)).toBeNull();
    expect(encodeText('a\udc00', 'utf-8', true)).toBeNull();
  });
});
