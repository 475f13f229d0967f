// git's pack entries and delta format (OFS_DELTA and REF_DELTA): what the snapshot store reads in packs
// that git made (a clone, a fetch, `git gc`), and what a fetch indexes.

import { toHex } from './sha1.js';

export const OFS_DELTA = 6;
export const REF_DELTA = 7;

/** A pack entry's header: its type, its inflated size, the base a delta names, where its data starts. */
export interface PackEntryHeader {
  kind: number;
  size: number;
  dataStart: number;
  /** an OFS_DELTA's base, as the offset of its entry (may lie outside the pack if damaged) */
  baseOffset?: number;
  /** a REF_DELTA's base, by object id */
  baseOid?: string;
}

/** Read the header of the entry at `offset` (the type and size, then a delta's base). */
export function readEntryHeader(pack: Uint8Array, offset: number): PackEntryHeader {
  let at = offset;
  let c = pack[at++]!;
  const kind = (c >> 4) & 7;
  let size = c & 15;
  for (let scale = 16; c & 0x80; scale *= 128) {
    c = pack[at++]!;
    size += (c & 0x7f) * scale;
  }
  if (kind === OFS_DELTA) {
    c = pack[at++]!;
    let back = c & 0x7f;
    while (c & 0x80) {
      c = pack[at++]!;
      back = (back + 1) * 128 + (c & 0x7f);
    }
    return { kind, size, dataStart: at, baseOffset: offset - back };
  }
  if (kind === REF_DELTA) return { kind, size, dataStart: at + 20, baseOid: toHex(pack.subarray(at, at + 20)) };
  return { kind, size, dataStart: at };
}

/**
 * Apply a git delta to `base`, handing the result to `sink` in pieces that are views of the
 * base and the delta: the result itself is never built, so hashing a huge one costs nothing
 * beyond its inputs. Returns the result's length.
 */
export function applyDelta(base: Uint8Array, delta: Uint8Array, sink: (piece: Uint8Array) => void): number {
  const [baseSize, afterBase] = sizeAt(delta, 0);
  if (baseSize !== base.length) throw new Error('a delta does not match the size of its base');
  const [resultSize, afterResult] = sizeAt(delta, afterBase);
  let at = afterResult;
  let written = 0;
  while (at < delta.length) {
    const op = delta[at++]!;
    if (op & 0x80) {
      let offset = 0;
      let size = 0;
      for (let bit = 0; bit < 4; bit++) if (op & (1 << bit)) offset += delta[at++]! * 2 ** (8 * bit);
      for (let bit = 0; bit < 3; bit++) if (op & (0x10 << bit)) size += delta[at++]! << (8 * bit);
      if (size === 0) size = 0x10000;
      if (offset + size > base.length) throw new Error('a delta copies past the end of its base');
      sink(base.subarray(offset, offset + size));
      written += size;
    } else if (op > 0) {
      if (at + op > delta.length) throw new Error('a delta inserts past its own end');
      sink(delta.subarray(at, at + op));
      at += op;
      written += op;
    } else throw new Error('a delta holds the reserved opcode 0');
  }
  if (written !== resultSize) throw new Error('a delta makes a different size than it states');
  return written;
}

/** The result size a delta states, from its first inflated bytes. */
export function deltaResultSize(head: Uint8Array): number {
  return sizeAt(head, sizeAt(head, 0)[1])[0];
}

/** One of a delta's two leading sizes (base-128, low bits first) at `at`, and where the next begins. */
function sizeAt(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  let scale = 1;
  let byte: number;
  do {
    byte = bytes[at++] ?? 0;
    value += (byte & 0x7f) * scale;
    scale *= 128;
  } while (byte & 0x80 && at < bytes.length);
  return [value, at];
}
