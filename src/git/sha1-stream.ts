import { compressBlock, toHex } from '../snapshots/sha1.js';

/**
 * SHA-1 fed in pieces, for objects too big to hold: a pack's blob is hashed while it inflates,
 * a delta's result while its copies and inserts are read, so neither is ever one buffer.
 */
export class Sha1Stream {
  private h = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0]);
  private readonly block = new Uint8Array(64);
  private filled = 0;
  private length = 0;

  update(data: Uint8Array): this {
    this.length += data.length;
    let at = 0;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, data.length);
      this.block.set(data.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= data.length; at += 64) this.compress(data, at);
    if (at < data.length) {
      this.block.set(data.subarray(at));
      this.filled = data.length - at;
    }
    return this;
  }

  /** The lower-case hex digest; the stream is spent afterwards. */
  hex(): string {
    const bits = this.length * 8;
    const pad = new Uint8Array(((this.filled + 9 + 63) >> 6) * 64 - this.filled);
    pad[0] = 0x80;
    const end = pad.length;
    const high = Math.floor(bits / 2 ** 32);
    for (let i = 0; i < 4; i++) {
      pad[end - 1 - i] = (bits >>> (8 * i)) & 0xff;
      pad[end - 5 - i] = (high >>> (8 * i)) & 0xff;
    }
    this.update(pad);
    const out = new Uint8Array(20);
    for (let i = 0; i < 5; i++) {
      const v = this.h[i]!;
      out[i * 4] = v >>> 24;
      out[i * 4 + 1] = (v >>> 16) & 0xff;
      out[i * 4 + 2] = (v >>> 8) & 0xff;
      out[i * 4 + 3] = v & 0xff;
    }
    return toHex(out);
  }

  private compress(src: Uint8Array, p: number): void {
    compressBlock(this.h, src, p);
  }
}
