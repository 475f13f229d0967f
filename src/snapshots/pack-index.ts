import { fromHex, toHex } from './sha1.js';

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
