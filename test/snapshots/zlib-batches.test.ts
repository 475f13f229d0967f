import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/index.js';
import { deflateOnHelper } from '../../src/fs/node-direct.js';
import { installPlatformNative } from '../../src/fs/platform-native.js';
import type { NativeHelpers } from '../../src/fs/types.js';
import { DeflateBatches } from '../../src/snapshots/zlib.js';

/** Distinct, compressible contents over the stored size, some of them views into one larger buffer. */
function contents(n: number): Uint8Array[] {
  const whole = new Uint8Array(n * 9000 + 100);
  for (let i = 0; i < whole.length; i++) whole[i] = 97 + ((i * 7 + Math.floor(i / 300)) % 26);
  return Array.from({ length: n }, (_, i) =>
    i % 2 ? whole.subarray(50 + i * 9000, 50 + i * 9000 + 5000 + i) : whole.slice(i * 9000, i * 9000 + 6000 + i),
  );
}
const inflated = (bytes: Uint8Array) => new Uint8Array(inflateSync(bytes));
/** Which of `out` inflate to the matching one of `list` (a byte compare: deep equality of big arrays is slow). */
const matches = (out: Uint8Array[], list: Uint8Array[]) =>
  out.map((bytes, i) => Buffer.from(inflateSync(bytes)).equals(list[i]!));

afterEach(() => installPlatformNative(null));

describe('objects compressed a batch at a time', () => {
  it('on the Node helper thread: each object comes back as its own zlib stream, in order', async () => {
    const list = contents(40);
    let job = deflateOnHelper(list, 1);
    // the thread starts with the first request; until it runs, the caller is told to compress itself
    while (job === null) {
      await new Promise((resolve) => setImmediate(resolve));
      job = deflateOnHelper(list, 1);
    }
    const out = await job;
    expect(matches(out, list)).toEqual(list.map(() => true));
  });

  it('fall back to one object at a time when the batch compressor cannot take them or fails', async () => {
    const { NODE_NATIVE } = await import('../../src/fs/node.js');
    const list = contents(70);
    for (const deflateMany of [() => null, () => Promise.reject(new Error('thread gone'))]) {
      let asked = 0;
      const helpers: NativeHelpers = {
        ...NODE_NATIVE,
        deflateMany: () => (asked++, deflateMany()),
      };
      installPlatformNative(helpers);
      const batches = new DeflateBatches(createMemoryFs({}));
      const pending = list.map((bytes) => batches.add(bytes));
      batches.send();
      const out = await Promise.all(pending);
      expect(matches(out, list)).toEqual(list.map(() => true));
      // 70 objects of ~6 KB: two full batches of 32, and the rest sent by hand
      expect(asked).toBe(3);
    }
  });

  it('keep small objects out of the batches (they are stored, not compressed)', async () => {
    const { NODE_NATIVE } = await import('../../src/fs/node.js');
    let asked = 0;
    installPlatformNative({ ...NODE_NATIVE, deflateMany: (l) => (asked++, NODE_NATIVE.deflateMany!(l)) });
    const batches = new DeflateBatches(createMemoryFs({}));
    const small = new Uint8Array(4000).fill(120);
    const out = batches.add(small);
    batches.send();
    expect(out).toBeInstanceOf(Uint8Array);
    expect(inflated(out as Uint8Array)).toEqual(small);
    expect(asked).toBe(0);
  });
});
