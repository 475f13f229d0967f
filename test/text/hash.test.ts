import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NODE_NATIVE } from '../../src/fs/node.js';
import { sha256Hex, sha256HexSync } from '../../src/text/hash.js';

const SIZES = [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 4096, 4097, 65_536, 1_000_003];

describe('sha256', () => {
  it("matches Node's crypto at every padding boundary and across the sync/WebCrypto switch", async () => {
    for (const size of SIZES) {
      const bytes = new Uint8Array(randomBytes(size));
      const expected = createHash('sha256').update(bytes).digest('hex');
      expect(await sha256Hex(bytes)).toBe(expected);
      if (size < 70_000) expect(sha256HexSync(bytes)).toBe(expected);
    }
  });

  // The node backend hashes small files in JS until it has loaded crypto, and with crypto after.
  it("matches Node's crypto through the node backend, before and after a large file loads its crypto", () => {
    for (const size of [...SIZES, ...SIZES]) {
      const bytes = new Uint8Array(randomBytes(size));
      expect(NODE_NATIVE.sha256Hex(bytes)).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });
});
