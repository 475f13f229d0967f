import { fromHex, HEX, hexInto, toHex } from '../fs/hash/hex.js';
import { platformNative } from '../fs/platform-native.js';

/**
 * A synchronous SHA-1, for git object ids. WebCrypto's digest is async and costs more per call
 * than hashing a small source file outright; a first snapshot hashes tens of thousands of them.
 * In a browser this is the hash of every object a clone indexes, so the rounds are written out
 * (no per-round branch) and an object's header is hashed ahead of its content without copying the
 * content behind it.
 */
const W = new Int32Array(80);
/** the last one or two blocks: the bytes past the last whole block, the padding and the length */
const TAIL = new Uint8Array(128);
const H = new Int32Array(5);

export function sha1(data: Uint8Array): Uint8Array {
  digestInto(EMPTY, data);
  return stateBytes();
}

const EMPTY = new Uint8Array(0);

/**
 * SHA-1 of `head` then `body` into H, as if they were one buffer (`head` under 64 bytes: a
 * git object's header). Only the bytes that share a block with `head`, and the tail, are copied.
 */
function digestInto(head: Uint8Array, body: Uint8Array): void {
  H[0] = 0x67452301;
  H[1] = 0xefcdab89 | 0;
  H[2] = 0x98badcfe | 0;
  H[3] = 0x10325476;
  H[4] = 0xc3d2e1f0 | 0;
  const total = head.length + body.length;
  let filled = head.length;
  let at = 0;
  if (filled > 0) {
    TAIL.set(head);
    at = Math.min(64 - filled, body.length);
    TAIL.set(body.subarray(0, at), filled);
    filled += at;
    if (filled === 64) {
      compressBlock(H, TAIL, 0);
      filled = 0;
    }
  }
  if (filled === 0) {
    for (; at + 64 <= body.length; at += 64) compressBlock(H, body, at);
    filled = body.length - at;
    TAIL.set(body.subarray(at));
  }
  TAIL[filled] = 0x80;
  TAIL.fill(0, filled + 1);
  const end = filled < 56 ? 64 : 128;
  const high = Math.floor(total / 0x20000000);
  const bits = total * 8;
  TAIL[end - 1] = bits & 0xff;
  TAIL[end - 2] = (bits >>> 8) & 0xff;
  TAIL[end - 3] = (bits >>> 16) & 0xff;
  TAIL[end - 4] = (bits >>> 24) & 0xff;
  TAIL[end - 5] = high & 0xff;
  TAIL[end - 6] = (high >>> 8) & 0xff;
  TAIL[end - 7] = (high >>> 16) & 0xff;
  TAIL[end - 8] = (high >>> 24) & 0xff;
  compressBlock(H, TAIL, 0);
  if (end === 128) compressBlock(H, TAIL, 64);
}

function stateBytes(): Uint8Array {
  const out = new Uint8Array(20);
  for (let i = 0; i < 5; i++) {
    const v = H[i]!;
    out[i * 4] = v >>> 24;
    out[i * 4 + 1] = (v >>> 16) & 0xff;
    out[i * 4 + 2] = (v >>> 8) & 0xff;
    out[i * 4 + 3] = v & 0xff;
  }
  return out;
}

function stateHex(): string {
  let s = '';
  for (let i = 0; i < 5; i++) {
    const v = H[i]!;
    s += HEX[v >>> 24]! + HEX[(v >>> 16) & 0xff]! + HEX[(v >>> 8) & 0xff]! + HEX[v & 0xff]!;
  }
  return s;
}

/** One 64-byte block of SHA-1 at `src[p]` folded into the state `h` (five words); shared with the streaming hash. */
export function compressBlock(h: Int32Array, src: Uint8Array, p: number): void {
  const w = W;
  for (let i = 0; i < 16; i++, p += 4) w[i] = (src[p]! << 24) | (src[p + 1]! << 16) | (src[p + 2]! << 8) | src[p + 3]!;
  for (let i = 16; i < 80; i++) {
    const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
    w[i] = (x << 1) | (x >>> 31);
  }
  let a = h[0]!;
  let b = h[1]!;
  let c = h[2]!;
  let d = h[3]!;
  let e = h[4]!;
  let t: number;
  for (let i = 0; i < 20; i++) {
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 20; i < 40; i++) {
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 40; i < 60; i++) {
    t = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + (0x8f1bbcdc | 0) + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  for (let i = 60; i < 80; i++) {
    t = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + (0xca62c1d6 | 0) + w[i]!) | 0;
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

export { fromHex, hexInto, toHex };

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
  const header = HEADER_ENCODER.encode(`${type} ${content.length}\0`);
  if (native) return native([header, content]);
  digestInto(header, content);
  return stateHex();
}
