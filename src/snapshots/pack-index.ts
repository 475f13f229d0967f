import { fromHex, sha1Digest, toHex } from './sha1.js';

const MAGIC = 0xff744f63;
const FAN_OUT = 8;
const NAMES = FAN_OUT + 256 * 4;

/**
 * A version 2 pack index (`pack-<sha>.idx`, what git, isomorphic-git and PackWriter write): which
 * objects the pack beside it holds, and where each starts. Version 1 (git before 1.5.2) is refused.
 */
export class PackIndex {
  /** how many objects the pack holds */
  readonly count: number;
  private readonly view: DataView;
  private readonly offsetsAt: number;
  private readonly largeAt: number;
  /** every entry's start, ascending: an entry ends where the next one starts */
  private starts: Float64Array | null = null;

  constructor(
    private readonly bytes: Uint8Array,
    name: string,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < NAMES + 40 || this.view.getUint32(0) !== MAGIC)
      throw new Error(
        `the pack index ${name} is not a version 2 index (git before 1.5.2 wrote version 1; repack with a current git)`,
      );
    if (this.view.getUint32(4) !== 2)
      throw new Error(`the pack index ${name} is version ${this.view.getUint32(4)}, not 2`);
    this.count = this.view.getUint32(FAN_OUT + 255 * 4);
    this.offsetsAt = NAMES + this.count * 24;
    this.largeAt = this.offsetsAt + this.count * 4;
    if (bytes.length < this.largeAt + 40) throw new Error(`the pack index ${name} is cut short`);
  }

  /** Where the object starts in the pack, or -1 when the pack does not hold it. */
  offsetOf(oid: string): number {
    const want = fromHex(oid);
    let lo = want[0] === 0 ? 0 : this.view.getUint32(FAN_OUT + (want[0]! - 1) * 4);
    let hi = this.view.getUint32(FAN_OUT + want[0]! * 4);
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const order = this.compareName(mid, want);
      if (order === 0) return this.offsetAt(mid);
      if (order < 0) lo = mid + 1;
      else hi = mid;
    }
    return -1;
  }

  /** Every object's id and start, in id order. */
  entries(): Array<{ oid: string; offset: number }> {
    const out: Array<{ oid: string; offset: number }> = [];
    for (let i = 0; i < this.count; i++)
      out.push({ oid: toHex(this.bytes.subarray(NAMES + i * 20, NAMES + i * 20 + 20)), offset: this.offsetAt(i) });
    return out;
  }

  /** Where the entry that starts at `offset` ends: where the next one starts, or at the pack's checksum. */
  endOf(offset: number, packLength: number): number {
    if (!this.starts) {
      const starts = new Float64Array(this.count);
      for (let i = 0; i < this.count; i++) starts[i] = this.offsetAt(i);
      this.starts = starts.sort();
    }
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid]! <= offset) lo = mid + 1;
      else hi = mid;
    }
    return lo < starts.length ? starts[lo]! : packLength - 20;
  }

  private compareName(i: number, want: Uint8Array): number {
    const at = NAMES + i * 20;
    for (let b = 0; b < 20; b++) {
      const d = this.bytes[at + b]! - want[b]!;
      if (d !== 0) return d;
    }
    return 0;
  }

  private offsetAt(i: number): number {
    const small = this.view.getUint32(this.offsetsAt + i * 4);
    if (!(small & 0x80000000)) return small;
    // past 2 GiB: the entry holds an index into the table of 64-bit offsets
    const at = this.largeAt + (small & 0x7fffffff) * 8;
    return this.view.getUint32(at) * 2 ** 32 + this.view.getUint32(at + 4);
  }
}

/** One object's line in a pack index. */
export interface IndexLine {
  oid: string;
  offset: number;
  crc: number;
}

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
