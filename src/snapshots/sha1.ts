import { platformNative } from '../fs/platform-native.js';

/**
 * A synchronous SHA-1, for git object ids. WebCrypto's digest is async and costs more per call
 * than hashing a small source file outright; a first snapshot hashes tens of thousands of them.
 */
const W = new Int32Array(80);

export function sha1(data: Uint8Array): Uint8Array {
  const length = data.length;
  const blocks = Math.ceil((length + 9) / 64);
  const tail = new Uint8Array(128);
  const tailStart = Math.floor(length / 64) * 64;
  tail.set(data.subarray(tailStart));
  tail[length - tailStart] = 0x80;
  const tailLength = blocks * 64 - tailStart;
  const bits = length * 8;
  tail[tailLength - 1] = bits & 0xff;
  tail[tailLength - 2] = (bits >>> 8) & 0xff;
  tail[tailLength - 3] = (bits >>> 16) & 0xff;
  tail[tailLength - 4] = (bits >>> 24) & 0xff;
  const high = Math.floor(length / 0x20000000);
  tail[tailLength - 5] = high & 0xff;
  tail[tailLength - 6] = (high >>> 8) & 0xff;
  const h = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476, 0xc3d2e1f0 | 0]);
  for (let block = 0; block < blocks; block++) {
    const offset = block * 64;
    if (offset < tailStart) compressBlock(h, data, offset);
    else compressBlock(h, tail, offset - tailStart);
  }
  const out = new Uint8Array(20);
  h.forEach((v, i) => {
    out[i * 4] = v >>> 24;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  });
  return out;
}

/** One 64-byte block of SHA-1 at `src[p]` folded into the state `h` (five words); shared with the streaming hash. */
export function compressBlock(h: Int32Array, src: Uint8Array, p: number): void {
  for (let i = 0; i < 16; i++, p += 4) W[i] = (src[p]! << 24) | (src[p + 1]! << 16) | (src[p + 2]! << 8) | src[p + 3]!;
  for (let i = 16; i < 80; i++) {
    const x = W[i - 3]! ^ W[i - 8]! ^ W[i - 14]! ^ W[i - 16]!;
    W[i] = (x << 1) | (x >>> 31);
  }
  let a = h[0]!,
    b = h[1]!,
    c = h[2]!,
    d = h[3]!,
    e = h[4]!;
  for (let i = 0; i < 80; i++) {
    let f: number, k: number;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc | 0;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6 | 0;
    }
    const t = (((a << 5) | (a >>> 27)) + f + e + k + W[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
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

const HEADER_ENCODER = new TextEncoder();

/** The object as git stores it before compression: `<type> <size>\0` then the content. */
export function wrapObject(type: GitObjectType | 'tag', content: Uint8Array): Uint8Array {
  const header = HEADER_ENCODER.encode(`${type} ${content.length}\0`);
  const out = new Uint8Array(header.length + content.length);
  out.set(header);
  out.set(content, header.length);
  return out;
}

/** SHA-1 of a whole buffer (a pack's or an index's checksum), by the host's hash where an entry installed one. */
export function sha1Digest(data: Uint8Array): Uint8Array {
  const native = platformNative()?.sha1Hex;
  return native ? fromHex(native([data])) : sha1(data);
}

/** The id git gives an object of this type and content. */
export function objectId(type: GitObjectType | 'tag', content: Uint8Array): string {
  // the host's SHA-1 where an entry installed one (Node's crypto is several times faster), hashing
  // the header and the content in turn instead of copying them into one buffer
  const native = platformNative()?.sha1Hex;
  if (native) return native([HEADER_ENCODER.encode(`${type} ${content.length}\0`), content]);
  return toHex(sha1(wrapObject(type, content)));
}
