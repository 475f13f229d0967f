import type { WorkspaceFs } from '../fs/types.js';
import { sha256Hex } from '../text/hash.js';

/** Files above this size are hashed every time: keeping their bytes would cost too much memory. */
const MAX_CACHED_BYTES = 64 * 1024;
const MAX_ENTRIES = 256;

interface Entry {
  bytes: Uint8Array;
  sha256: string;
}

/** Per backend: the entries in least-recently-used order, and the key used last (already at the end). */
interface Cache {
  entries: Map<string, Entry>;
  last: string | null;
}

const caches = new WeakMap<WorkspaceFs, Cache>();

/**
 * SHA-256 of a file's bytes, remembered per backend path. An agent reads the same files again and
 * again; comparing the bytes with the copy kept last time costs a fraction of hashing them, and
 * a hash is only reused for exactly the same bytes, so it can never be stale. `owned` says the
 * caller made these bytes and nothing will change them (a patch's new content), so they are kept
 * as they are instead of copied.
 */
export async function fileSha256(
  fs: WorkspaceFs,
  abs: string,
  bytes: Uint8Array,
  options: { owned?: boolean } = {},
): Promise<string> {
  const known = knownSha256(fs, abs, bytes, options);
  if (known !== null) return known;
  const sha256 = await sha256Hex(bytes);
  return bytes.length > MAX_CACHED_BYTES
    ? sha256
    : keep(cacheOf(fs), abs, options.owned ? bytes : bytes.slice(), sha256);
}

/**
 * fileSha256 answered synchronously, for hot paths: from the cache, or by the backend's native
 * hashing; null when only the portable (asynchronous) hashing is left.
 */
export function knownSha256(
  fs: WorkspaceFs,
  abs: string,
  bytes: Uint8Array,
  options: { owned?: boolean } = {},
): string | null {
  if (bytes.length > MAX_CACHED_BYTES) return fs.native ? fs.native.sha256Hex(bytes) : null;
  const cache = cacheOf(fs);
  const known = cache.entries.get(abs);
  if (known && sameBytes(known.bytes, bytes)) {
    if (cache.last !== abs) touch(cache, abs, known);
    return known.sha256;
  }
  return fs.native ? keep(cache, abs, options.owned ? bytes : bytes.slice(), fs.native.sha256Hex(bytes)) : null;
}

function cacheOf(fs: WorkspaceFs): Cache {
  let cache = caches.get(fs);
  if (!cache) caches.set(fs, (cache = { entries: new Map(), last: null }));
  return cache;
}

/** Remember `copy`, which nothing else may change, as the bytes whose hash is `sha256`. */
function keep(cache: Cache, abs: string, copy: Uint8Array, sha256: string): string {
  touch(cache, abs, { bytes: copy, sha256 });
  if (cache.entries.size > MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
  return sha256;
}

function touch(cache: Cache, abs: string, entry: Entry): void {
  cache.entries.delete(abs);
  cache.entries.set(abs, entry);
  cache.last = abs;
}

/** Byte equality, four bytes per step where both views are aligned (they nearly always are). */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let i = 0;
  if ((a.byteOffset & 3) === 0 && (b.byteOffset & 3) === 0) {
    const words = a.length >>> 2;
    const wa = new Int32Array(a.buffer, a.byteOffset, words);
    const wb = new Int32Array(b.buffer, b.byteOffset, words);
    for (; i < words; i++) if (wa[i] !== wb[i]) return false;
    i = words << 2;
  }
  for (; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
