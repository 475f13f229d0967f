import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_NATIVE } from '../../src/fs/node.js';
import { installPlatformNative } from '../../src/fs/platform-native.js';
import { inflateAt, inflateWhole } from '../../src/git/pack-inflate.js';
import { Sha1Stream } from '../../src/git/sha1-stream.js';

afterEach(() => installPlatformNative(null));

/** Three MiB that deflate well but not to nothing, as a big source file does. */
const content = Uint8Array.from({ length: 3 * 1024 * 1024 }, (_, i) =>
  i % 977 < 500 ? 97 + (i % 26) : (i * 7919) >>> 8,
);
const stream = deflateSync(content);
/** The stream at offset 5 of a "pack", with the next object's bytes after it. */
const pack = new Uint8Array([1, 2, 3, 4, 5, ...stream, 0x78, 0x9c, 9, 9, 9]);

/** What inflateAt gives, or the message it fails with, and every byte the sink saw. */
async function outcome(data: Uint8Array, limit = Infinity, sinkThrowsAt = Infinity) {
  const pieces: Uint8Array[] = [];
  let seen = 0;
  try {
    const done = await inflateAt(
      data,
      5,
      (piece) => {
        seen += piece.length;
        if (seen > sinkThrowsAt) throw new Error('the sink had enough');
        pieces.push(piece);
      },
      limit,
    );
    return { done, bytes: Buffer.concat(pieces) };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

describe('inflating a big object a piece at a time', () => {
  it("gives the same pieces, end and errors on Node's zlib as the portable code", async () => {
    const cases: Array<[string, Uint8Array, number?, number?]> = [
      ['whole, with the next object after it', pack],
      ['cut inside the stream', pack.subarray(0, 5 + stream.length - 40)],
      ['damaged inside the stream', Uint8Array.from(pack, (b, i) => (i === 5 + 200 ? b ^ 0x55 : b))],
      ['not a zlib stream', Uint8Array.from(pack, (b, i) => (i === 5 ? 0 : b))],
      ['over its stated size', pack, content.length - 1],
      ['stopped by its sink', pack, Infinity, 1024 * 1024],
    ];
    for (const [name, data, limit, sinkThrowsAt] of cases) {
      const portable = await outcome(data, limit, sinkThrowsAt);
      installPlatformNative(NODE_NATIVE);
      const native = await outcome(data, limit, sinkThrowsAt);
      installPlatformNative(null);
      if ('error' in portable) {
        expect(native.error, name).toMatch(portable.error!.replace(/:.*/, ''));
        expect('done' in native, name).toBe(false);
      } else {
        expect(native.done, name).toEqual(portable.done);
        expect(Buffer.compare(native.bytes!, portable.bytes!), name).toBe(0);
      }
    }
    expect((await outcome(pack)).done).toEqual({ end: 5 + stream.length, length: content.length });
  });

  it("fills a buffer of the object's size the same way, and hashes in pieces as the portable SHA-1 does", async () => {
    const portable = await inflateWhole(pack, 5, content.length);
    const portableId = new Sha1Stream().update(portable.subarray(0, 1000)).update(portable.subarray(1000)).hex();
    installPlatformNative(NODE_NATIVE);
    const native = await inflateWhole(pack, 5, content.length);
    const nativeId = new Sha1Stream().update(native.subarray(0, 1000)).update(native.subarray(1000)).hex();
    expect(Buffer.compare(native, content)).toBe(0);
    expect(Buffer.compare(portable, content)).toBe(0);
    expect(nativeId).toBe(portableId);
    await expect(inflateWhole(pack, 5, content.length + 1)).rejects.toThrow(/inflates to/);
  });
});
