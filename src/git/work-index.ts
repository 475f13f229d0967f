import type { FsStat } from '../fs/types.js';
import { fromHex, sha1Digest } from '../snapshots/sha1.js';

/** One file of a checkout as git's index records it: what is staged, and the file's stat when written. */
export interface IndexRow {
  path: string;
  oid: string;
  /** '100644', '100755', '120000' */
  mode: string;
  /** the written file's stat (null: unknown, so git hashes the file on its next look) */
  stat: FsStat | null;
}

const encoder = new TextEncoder();
const u32 = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) % 2 ** 32 : 0);

/** git sorts index entries by their names' bytes, not by UTF-16 code units. */
function byteOrder(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * A version 2 index (`DIRC`), the version isomorphic-git reads, holding every row at stage 0
 * with its stat data, so the real git and the shell's git take an untouched file as unchanged
 * without hashing it. Ends with the SHA-1 of everything before it, as git checks.
 */
export function serializeIndex(rows: readonly IndexRow[]): Uint8Array {
  const named = rows.map((r) => ({ ...r, name: encoder.encode(r.path) })).sort((a, b) => byteOrder(a.name, b.name));
  let length = 12;
  // each entry is 62 bytes and its name, padded with 1 to 8 NULs to a multiple of 8
  for (const r of named) length += Math.floor((62 + r.name.length + 8) / 8) * 8;
  const out = new Uint8Array(length + 20);
  const view = new DataView(out.buffer);
  out.set(encoder.encode('DIRC'));
  view.setUint32(4, 2);
  view.setUint32(8, named.length);
  let at = 12;
  for (const r of named) {
    const s = r.stat;
    const ctime = s?.ctimeMs ?? 0;
    const mtime = s?.mtimeMs ?? 0;
    const words = [
      ctime / 1000,
      (ctime % 1000) * 1e6,
      mtime / 1000,
      (mtime % 1000) * 1e6,
      s?.dev ?? 0,
      s?.ino ?? 0,
      Number.parseInt(r.mode, 8),
      s?.uid ?? 0,
      s?.gid ?? 0,
      s?.size ?? 0,
    ];
    words.forEach((w, i) => view.setUint32(at + i * 4, u32(w)));
    out.set(fromHex(r.oid), at + 40);
    view.setUint16(at + 60, Math.min(r.name.length, 0xfff));
    out.set(r.name, at + 62);
    at += Math.floor((62 + r.name.length + 8) / 8) * 8;
  }
  out.set(sha1Digest(out.subarray(0, length)), length);
  return out;
}
