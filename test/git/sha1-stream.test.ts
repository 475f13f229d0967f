import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE_NATIVE } from '../../src/fs/node.js';
import { installPlatformNative } from '../../src/fs/platform-native.js';
import { Sha1Stream } from '../../src/git/sha1-stream.js';

afterEach(() => installPlatformNative(null));

/** Three MiB and a bit, fed in pieces of every awkward size (under a block, across blocks, empty). */
const content = Uint8Array.from({ length: 3 * 1024 * 1024 + 77 }, (_, i) => (i * 7919) >>> 5);
const cuts = [0, 1, 63, 64, 65, 1000, 1000, 65_536, 2_000_000, content.length];

function hashInPieces(): string {
  const sha = new Sha1Stream().update(new TextEncoder().encode(`blob ${content.length}\0`));
  for (let i = 1; i < cuts.length; i++) sha.update(content.subarray(cuts[i - 1], cuts[i]));
  return sha.hex();
}

describe('the SHA-1 a big object is hashed with as it inflates', () => {
  it("gives git's id on Node's crypto, once the Node entry installed it, and in the portable code", () => {
    const id = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
    expect(hashInPieces()).toBe(id);
    installPlatformNative(NODE_NATIVE);
    expect(hashInPieces()).toBe(id);
  });
});
