import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryFs, type WorkspaceFs } from '../../src/index.js';
import { fileSha256, knownSha256 } from '../../src/workspace/sha-cache.js';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (s: string) => new TextEncoder().encode(s);

/** A memory backend with a native hasher that counts its calls, so a cache hit shows as no new hash. */
function nativeCounting(): WorkspaceFs & { hashes: number } {
  const inner = createMemoryFs();
  const state = { hashes: 0 };
  const fs = Object.create(inner) as WorkspaceFs & { hashes: number };
  Object.defineProperty(fs, 'native', {
    value: {
      sha256Hex: (b: Uint8Array) => {
        state.hashes++;
        return sha(b);
      },
    },
  });
  Object.defineProperty(fs, 'hashes', { get: () => state.hashes });
  return fs;
}

describe('fileSha256', () => {
  it('answers the same bytes from the cache, and hashes changed bytes anew', async () => {
    const fs = nativeCounting();
    const a = text('one\ntwo\n');
    expect(await fileSha256(fs, '/ws/a.txt', a)).toBe(sha(a));
    expect(await fileSha256(fs, '/ws/a.txt', text('one\ntwo\n'))).toBe(sha(a));
    expect(fs.hashes).toBe(1);
    const b = text('one\nTWO\n');
    expect(await fileSha256(fs, '/ws/a.txt', b)).toBe(sha(b));
    expect(fs.hashes).toBe(2);
  });

  it('keeps its own copy of bytes it does not own, so the caller changing them later cannot make a hash stale', async () => {
    for (const fs of [createMemoryFs(), nativeCounting()]) {
      const bytes = text('original content\n');
      const original = sha(bytes);
      expect(await fileSha256(fs, '/ws/f.txt', bytes)).toBe(original);
      bytes.set(text('changed!'), 0);
      // the cache still holds the original bytes: the changed ones do not match them
      expect(knownSha256(fs, '/ws/f.txt', bytes) ?? (await fileSha256(fs, '/ws/f.txt', bytes))).toBe(sha(bytes));
      expect(knownSha256(fs, '/ws/f.txt', text('original content\n'))).toBe(fs.native ? original : null);
    }
  });

  it('keeps owned bytes as they are, and still answers equal bytes read back from a hit', async () => {
    const fs = createMemoryFs();
    const owned = text('x'.repeat(30_000));
    const expected = sha(owned);
    expect(await fileSha256(fs, '/ws/big.txt', owned, { owned: true })).toBe(expected);
    // a later read of the same content is answered synchronously, without hashing
    expect(knownSha256(fs, '/ws/big.txt', text('x'.repeat(30_000)))).toBe(expected);
    expect(knownSha256(fs, '/ws/big.txt', text(`${'x'.repeat(29_999)}y`))).toBeNull();
  });
});
