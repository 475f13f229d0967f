import { describe, expect, it } from 'vitest';
import { hasEscapedBytes, nameFromBytes, nameToBytes } from '../../src/fs/name-bytes.js';

describe('names as bytes (surrogate escape)', () => {
  it('leaves UTF-8 names as they are, astral characters included', () => {
    for (const name of ['plain.txt', 'é/ü', '😀.md', 'a\udce8'.slice(0, 1)]) {
      expect(nameFromBytes(new TextEncoder().encode(name))).toBe(name);
      expect(hasEscapedBytes(name)).toBe(false);
    }
  });

  it('escapes each stray byte and gives the same bytes back, for every byte string tried', () => {
    expect(nameFromBytes(Uint8Array.from([0x74, 0x68, 0xe8, 0x73, 0x65]))).toBe('th\udce8se');
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 16;
    for (let n = 0; n < 3000; n++) {
      const bytes = Uint8Array.from({ length: 1 + (next() % 12) }, () =>
        next() % 3 === 0 ? next() % 256 : [0x61, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80][next() % 10]!,
      );
      const name = nameFromBytes(bytes);
      expect([...nameToBytes(name)]).toEqual([...bytes]);
      expect(JSON.parse(JSON.stringify(name))).toBe(name);
    }
  });
});
