import { describe, expect, it } from 'vitest';
import { utf8Bytes } from '../../src/fs/pack/pack-log.js';

describe('utf8Bytes', () => {
  it('gives the bytes TextEncoder gives, for ASCII (copied) and every other kind of text', () => {
    const encoder = new TextEncoder();
    const ascii = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c)).join('');
    const texts = ['', 'pkg00/mod0/file0.ts', ascii, 'thèse.txt', '日本/語', 'a\u{1F600}b', '\uD800', 'é', '\x7f\x80'];
    for (const text of texts) expect([...utf8Bytes(text)], JSON.stringify(text)).toEqual([...encoder.encode(text)]);
  });
});
