import { describe, expect, it } from 'vitest';
import { guessUtf16 } from '../../demo/files/viewer.js';

// Issue 26 item 10: UTF-16 without a byte-order mark is BINARY_FILE to the text tools, yet text.
describe('telling UTF-16 text without a BOM from bytes', () => {
  it('names the byte order of text, ASCII or not', () => {
    expect(guessUtf16(Buffer.from('héllo\nwörld\n', 'utf16le'))).toBe('utf-16le');
    expect(guessUtf16(Buffer.from('héllo\nwörld\n', 'utf16le').swap16())).toBe('utf-16be');
  });

  it('says null for bytes: odd lengths, NULs on both sides, control characters, a lone surrogate', () => {
    expect(guessUtf16(Buffer.from('hi\n', 'utf16le').subarray(0, 5))).toBeNull();
    expect(guessUtf16(Buffer.from([0, 1, 2, 3, 0xff, 0x41, 0x42, 0, 0x10, 0]))).toBeNull();
    expect(guessUtf16(Buffer.from('a\u0001b\u0002', 'utf16le'))).toBeNull();
    expect(guessUtf16(Buffer.from([0x41, 0, 0x00, 0xd8, 0x42, 0]))).toBeNull();
    expect(guessUtf16(Buffer.from('plain ascii\n'))).toBeNull();
  });
});
