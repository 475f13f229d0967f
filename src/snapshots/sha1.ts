/**
 * A synchronous SHA-1, for git object ids. WebCrypto's digest is async and costs more per call
 * than hashing a small source file outright; a first snapshot hashes tens of thousands of them.
 */
const W = new Int32Array(80);

export function sha1(data: Uint8Array): Uint8Array {
  let h0 = 0x67452301, h1 = 0xefcdab89 | 0, h2 = 0x98badcfe | 0, h3 = 0x10325476, h4 = 0xc3d2e1f0 | 0;
  const length = data.length;
  const blocks = Math.ceil((length + 9) / 64);
  const tail = new Uint8Array(128);
  const tailStart = Math.floor(length / 64) * 64;
  tail.set(data.subarray(tailStart));
  tail[length - tailStart] = 0x80;
  const tailLength = (blocks * 64) - tailStart;
  const bits = length * 8;
  tail[tailLength - 1] = bits & 0xff;
  tail[tailLength - 2] = (bits >>> 8) & 0xff;
  tail[tailLength - 3] = (bits >>> 16) & 0xff;
  tail[tailLength - 4] = (bits >>> 24) & 0xff;
  const high = Math.floor(length / 0x20000000);
  tail[tailLength - 5] = high & 0xff;
  tail[tailLength - 6] = (high >>> 8) & 0xff;
  for (let block = 0; block < blocks; block++) {
    const offset = block * 64;
    const src = offset < tailStart ? data : tail;
    const base = offset < tailStart ? offset : offset - tailStart;
    for (let i = 0; i < 16; i++) {
      const p = base + i * 4;
      W[i] = (src[p]! << 24) | (src[p + 1]! << 16) | (src[p + 2]! << 8) | src[p + 3]!;
    }
    for (let i = 16; i < 80; i++) {
      const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
      W[i] = (x << 1) | (x >>> 31);
    }
    let a = h0, b = h1, c = h2, d = h3, e = h4;
    for (let i = 0; i < 80; i++) {
      let f: number, k: number;
      if (i < 20) { f = (b & c) | (~b & d); k = 0x5a827999; }
      else if (i < 40) { f = b ^ c ^ d; k = 0x6ed9eba1; }
      else if (i < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8f1bbcdc | 0; }
      else { f = b ^ c ^ d; k = 0xca62c1d6 | 0; }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + W[i]!) | 0;
      e = d; d = c; c = (b << 30) | (b >>> 2); b = a; a = t;
    }
    h0 = (h0 + a) | 0; h1 = (h1 + b) | 0; h2 = (h2 + c) | 0; h3 = (h3 + d) | 0; h4 = (h4 + e) | 0;
  }
  const out = new Uint8Array(20);
  [h0, h1, h2, h3, h4].forEach((h, i) => {
    out[i * 4] = h >>> 24; out[i * 4 + 1] = (h >>> 16) & 0xff; out[i * 4 + 2] = (h >>> 8) & 0xff; out[i * 4 + 3] = h & 0xff;
  });
  return out;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!]!;
  return s;
}

export function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export type GitObjectType = 'blob' | 'tree' | 'commit';

/** The object as git stores it before compression: `<type> <size>\0` then the content. */
export function wrapObject(type: GitObjectType, content: Uint8Array): Uint8Array {
  const header = new TextEncoder().encode(`${type} ${content.length}\0`);
  const out = new Uint8Array(header.length + content.length);
  out.set(header);
  out.set(content, header.length);
  return out;
}

/** The id git gives an object of this type and content. */
export function objectId(type: GitObjectType, content: Uint8Array): string {
  return toHex(sha1(wrapObject(type, content)));
}
