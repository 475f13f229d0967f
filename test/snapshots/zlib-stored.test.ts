import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zlibStored } from '../../src/snapshots/zlib.js';

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 131 + 7) & 0xff);

describe('zlibStored', () => {
  it.each([0, 1, 250, 512, 65535])('gives a zlib stream that zlib inflates back to the same %i bytes', (n) => {
    const input = bytes(n);
    expect(new Uint8Array(inflateSync(zlibStored(input)))).toEqual(input);
  });

  it('is read by DecompressionStream, as the browser reads objects', async () => {
    const input = bytes(300);
    const out = await new Response(
      new Blob([zlibStored(input) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('deflate')),
    ).arrayBuffer();
    expect(new Uint8Array(out)).toEqual(input);
  });

  it('has a checksum zlib verifies: a flipped byte is refused', () => {
    const stream = zlibStored(bytes(100));
    stream[50] = stream[50]! ^ 0xff;
    expect(() => inflateSync(stream)).toThrow();
  });
});
