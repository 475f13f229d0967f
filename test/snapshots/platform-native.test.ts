import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryFs } from '../../src/index.js';
import { installPlatformNative, platformNative } from '../../src/fs/platform-native.js';
import type { NativeHelpers } from '../../src/fs/types.js';
import { objectId } from '../../src/snapshots/sha1.js';
import { compress } from '../../src/snapshots/zlib.js';

const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 131 + 7) & 0xff);

/** git's own id: sha1 of `<type> <size>\0<content>`, computed here independently of the code under test. */
const gitId = (type: string, content: Uint8Array) =>
  createHash('sha1')
    .update(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]))
    .digest('hex');

/** Node's helpers, counting their calls. */
async function countingNative() {
  const { NODE_NATIVE } = await import('../../src/fs/node.js');
  const calls = { sha1: 0, deflate: 0 };
  const helpers: NativeHelpers = {
    ...NODE_NATIVE,
    sha1Hex: (parts) => {
      calls.sha1++;
      return NODE_NATIVE.sha1Hex!(parts);
    },
    deflate: (data) => {
      calls.deflate++;
      return NODE_NATIVE.deflate(data);
    },
  };
  return { helpers, calls };
}

afterEach(() => installPlatformNative(null));

describe('the host native helpers', () => {
  it('give the same git ids as the portable SHA-1, and are used once installed', async () => {
    const sizes = [0, 1, 55, 56, 64, 600, 70_000];
    const portable = sizes.map((n) => objectId('blob', bytes(n)));
    expect(portable).toEqual(sizes.map((n) => gitId('blob', bytes(n))));
    const { helpers, calls } = await countingNative();
    installPlatformNative(helpers);
    expect(sizes.map((n) => objectId('blob', bytes(n)))).toEqual(portable);
    expect(objectId('tree', bytes(40))).toBe(gitId('tree', bytes(40)));
    expect(calls.sha1).toBe(sizes.length + 1);
  });

  it('compress objects of a backend without its own (memory in Node), and small ones are stored', async () => {
    const { helpers, calls } = await countingNative();
    installPlatformNative(helpers);
    const fs = createMemoryFs({});
    expect(fs.native).toBeUndefined();
    const small = bytes(4000);
    const large = bytes(10_000);
    expect(new Uint8Array(inflateSync(await compress(fs, small)))).toEqual(small);
    expect(calls.deflate).toBe(0);
    const packed = await compress(fs, large);
    expect(calls.deflate).toBe(1);
    expect(new Uint8Array(inflateSync(packed))).toEqual(large);
  });

  it('are installed by the Node entry', async () => {
    expect(platformNative()).toBeNull();
    await import('../../src/node/index.js');
    expect(platformNative()?.sha1Hex?.([bytes(3)])).toBe(createHash('sha1').update(bytes(3)).digest('hex'));
  });
});
