import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflateAt, inflateWhole } from '../../src/git/pack-inflate.js';

/** A pack-like buffer: some bytes before the stream, the zlib stream, and bytes after it. */
function packWith(data: Uint8Array, before = 7, after = 5): { pack: Uint8Array; start: number; end: number } {
  const z = deflateSync(data);
  const pack = new Uint8Array(before + z.length + after).fill(0xee);
  pack.set(z, before);
  return { pack, start: before, end: before + z.length };
}

const text = new TextEncoder().encode('the quick brown fox jumps over the lazy dog\n'.repeat(5_000));
const zeros = new Uint8Array(40 * 1024 * 1024); // past one yield's output, a thousandfold from its input

describe('inflating one zlib stream of a pack', () => {
  it('hands every piece to the sink and finds where the stream ends', async () => {
    const { pack, start, end } = packWith(text);
    const got: number[] = [];
    const inflated = await inflateAt(pack, start, (piece) => got.push(...piece));
    expect(inflated).toEqual({ end, length: text.length });
    expect(Uint8Array.from(got)).toEqual(text);
  });

  it('inflates a big object whole into exactly its size', async () => {
    const { pack, start } = packWith(zeros);
    const out = await inflateWhole(pack, start, zeros.length);
    expect(out.length).toBe(zeros.length);
    expect(out.every((b) => b === 0)).toBe(true);
    let length = 0;
    expect((await inflateAt(pack, start, (p) => (length += p.length))).length).toBe(zeros.length);
  });

  it('refuses a stream that inflates past its stated size, or short of it', async () => {
    const { pack, start } = packWith(text);
    await expect(inflateWhole(pack, start, text.length - 1)).rejects.toThrow(
      `the object at offset ${start} inflates past its stated ${text.length - 1} bytes`,
    );
    await expect(inflateWhole(pack, start, text.length + 1)).rejects.toThrow(
      `inflates to ${text.length} bytes, not its stated ${text.length + 1}`,
    );
    await expect(inflateAt(pack, start, () => {}, 1000)).rejects.toThrow('inflates past its stated 1000 bytes');
  });

  it('names a pack that ends inside the stream, and bytes that are no stream', async () => {
    const { pack, start, end } = packWith(text, 7, 0);
    const cut = pack.subarray(0, end - 10);
    await expect(inflateAt(cut, start, () => {})).rejects.toThrow(`the pack ends inside the object at offset ${start}`);
    await expect(inflateWhole(cut, start, text.length)).rejects.toThrow('the pack ends inside the object');
    const junk = new Uint8Array(64).fill(0xff);
    await expect(inflateAt(junk, 3, () => {})).rejects.toThrow('the object at offset 3 does not inflate');
    await expect(inflateWhole(junk, 3, 10)).rejects.toThrow('the object at offset 3 does not inflate');
  });
});
