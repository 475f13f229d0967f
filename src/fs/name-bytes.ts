/**
 * File names that are not UTF-8 (a Latin-1 `th\xe8se.txt` from an old zip) are carried through
 * the tools as strings by "surrogate escape" (Python's PEP 383): each byte that is not part of a
 * valid UTF-8 sequence becomes the lone surrogate U+DC80..U+DCFF, which no valid UTF-8 name can
 * hold. JSON shows it as `\udce8` and parses it back to the same code unit, so such a name
 * round-trips through any tool call, and the backend and the snapshots turn it back into the
 * original bytes.
 */

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();
const LONE_ESCAPE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/;

/** True when `name` holds an escaped byte (so its bytes are not its UTF-8 encoding). */
export function hasEscapedBytes(name: string): boolean {
  return LONE_ESCAPE.test(name);
}

/** A name's bytes as a string: UTF-8 decoded, each stray byte escaped. */
export function nameFromBytes(bytes: Uint8Array): string {
  try {
    return fatal.decode(bytes);
  } catch {
    return decodeEscaping(bytes);
  }
}

/** A name's bytes as a string when they are valid UTF-8 (so it holds no escaped byte), else null. */
export function utf8Name(bytes: Uint8Array): string | null {
  try {
    return fatal.decode(bytes);
  } catch {
    return null;
  }
}

/** The bytes a name stands for: UTF-8, with each escaped byte put back as itself. */
export function nameToBytes(name: string): Uint8Array {
  if (!hasEscapedBytes(name)) return encoder.encode(name);
  const out: number[] = [];
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 0xdc80 && c <= 0xdcff && !(i > 0 && isHigh(name.charCodeAt(i - 1)))) {
      out.push(c - 0xdc00);
      continue;
    }
    let end = i + 1;
    if (isHigh(c) && end < name.length && isLow(name.charCodeAt(end))) end++;
    for (const b of encoder.encode(name.slice(i, end))) out.push(b);
    i = end - 1;
  }
  return Uint8Array.from(out);
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function decodeEscaping(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const length = validSequence(bytes, i);
    if (length === 0) {
      out += String.fromCharCode(0xdc00 + bytes[i]!);
      i++;
    } else {
      out += fatal.decode(bytes.subarray(i, i + length));
      i += length;
    }
  }
  return out;
}

/** The length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function validSequence(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b < 0x80) return 1;
  let length: number;
  let min: number;
  if (b >= 0xc2 && b <= 0xdf) {
    length = 2;
    min = 0x80;
  } else if (b >= 0xe0 && b <= 0xef) {
    length = 3;
    min = 0x800;
  } else if (b >= 0xf0 && b <= 0xf4) {
    length = 4;
    min = 0x10000;
  } else return 0;
  if (i + length > bytes.length) return 0;
  let cp = b & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const c = bytes[i + k]!;
    if ((c & 0xc0) !== 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return length;
}
