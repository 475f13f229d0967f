import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { objectId, sha1, toHex } from '../../src/snapshots/sha1.js';

describe('sha1', () => {
  it('matches node:crypto across block boundaries', () => {
    for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 31 + 7) & 0xff);
      expect(toHex(sha1(bytes)), `length ${n}`).toBe(createHash('sha1').update(bytes).digest('hex'));
    }
  });

  it('gives git ids whose header and content share blocks at every offset', () => {
    // the header is hashed ahead of the content without joining them: every split of the first block
    for (let n = 0; n < 200; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 131 + 7) & 0xff);
      for (const type of ['blob', 'tree', 'commit'] as const) {
        const want = createHash('sha1')
          .update(Buffer.concat([Buffer.from(`${type} ${n}\0`), bytes]))
          .digest('hex');
        expect(objectId(type, bytes), `${type} of ${n} bytes`).toBe(want);
      }
    }
  });

  it('gives git blob ids', () => {
    // `printf 'hello\n' | git hash-object --stdin`
    expect(objectId('blob', new TextEncoder().encode('hello\n'))).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    expect(objectId('blob', new Uint8Array())).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });
});
