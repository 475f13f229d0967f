import { fromHex, sha1Digest } from '../snapshots/sha1.js';

/** One object's line in a pack index. */
export interface IndexLine {
  oid: string;
  offset: number;
  crc: number;
}

/** CRC-32 (as zlib computes it) of a pack entry's raw bytes, which the index records. */
export { crc32 } from '../fs/hash/crc32.js';

/**
 * A version 2 pack index, byte for byte what `git index-pack` writes: the fan-out table, the
 * sorted ids, their CRCs, their offsets (those past 2 GiB in the 64-bit table), the pack's
 * checksum and the index's own.
 */
export function writePackIndex(lines: IndexLine[], packSha: string): Uint8Array {
  const sorted = [...lines].sort((a, b) => (a.oid < b.oid ? -1 : a.oid > b.oid ? 1 : 0));
  const n = sorted.length;
  const large = sorted.filter((l) => l.offset >= 0x80000000);
  const out = new Uint8Array(8 + 256 * 4 + n * 28 + large.length * 8 + 40);
  const view = new DataView(out.buffer);
  view.setUint32(0, 0xff744f63);
  view.setUint32(4, 2);
  let at = 8;
  let i = 0;
  for (let byte = 0; byte < 256; byte++) {
    while (i < n && parseInt(sorted[i]!.oid.slice(0, 2), 16) <= byte) i++;
    view.setUint32(at, i);
    at += 4;
  }
  for (const l of sorted) {
    out.set(fromHex(l.oid), at);
    at += 20;
  }
  for (const l of sorted) {
    view.setUint32(at, l.crc);
    at += 4;
  }
  let nextLarge = 0;
  for (const l of sorted) {
    view.setUint32(at, l.offset >= 0x80000000 ? (0x80000000 | nextLarge++) >>> 0 : l.offset);
    at += 4;
  }
  for (const l of large) {
    view.setUint32(at, Math.floor(l.offset / 2 ** 32));
    view.setUint32(at + 4, l.offset >>> 0);
    at += 8;
  }
  out.set(fromHex(packSha), at);
  at += 20;
  out.set(sha1Digest(out.subarray(0, at)), at);
  return out;
}
