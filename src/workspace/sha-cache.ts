import type { WorkspaceFs } from '../fs/types.js';
import { sha256Hex } from '../text/hash.js';

/** Files above this size are hashed every time: keeping their bytes would cost too much memory. */
const MAX_CACHED_BYTES = 64 * 1024;
const MAX_ENTRIES = 256;

interface Entry {
  bytes: Uint8Array;
  sha256: string;
}

const caches = new WeakMap<WorkspaceFs, Map<string, Entry>>();

/**
 * SHA-256 of a file's bytes, remembered per backend path. An agent reads the same files again and
 * again; comparing the bytes with the copy kept last time costs a fraction of hashing them, and
 * a hash is only reused for exactly the same bytes, so it can never be stale.
 */
export async function fileSha256(fs: WorkspaceFs, abs: string, bytes: Uint8Array): Promise<string> {
  if (bytes.length > MAX_CACHED_BYTES) return sha256Hex(bytes);
  let cache = caches.get(fs);
  if (!cache) caches.set(fs, (cache = new Map()));
  const known = cache.get(abs);
  if (known && sameBytes(known.bytes, bytes)) {
    cache.delete(abs);
    cache.set(abs, known);
    return known.sha256;
  }
  const sha256 = await sha256Hex(bytes);
  cache.delete(abs);
  cache.set(abs, { bytes: bytes.slice(), sha256 });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return sha256;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
