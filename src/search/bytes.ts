/**
 * Byte-level search over Uint8Array without `node:` imports. Uint8Array#indexOf only finds a
 * single byte, so a needle is found by jumping (natively) to its rarest byte and comparing the
 * rest in place; rare anchors keep the number of native calls close to the number of candidates.
 */

// Rough rank of how common each byte is in source code and prose (lower = rarer). Letters and
// space are common; punctuation, digits and upper case less so; control and high bytes rare.
const COMMON = ' etaoinsrlhdcumfpgwybvkxjqz_\n\t.,;()=/"\'{}-:0123456789ETAOINSRLHDCUMFPGWYBVKXJQZ<>[]*+#!?&|@$%^~`\\';
const RANK = new Uint8Array(256);
for (let i = 0; i < COMMON.length; i++) RANK[COMMON.charCodeAt(i)] = 255 - i;

/** A needle prepared for repeated searches: its bytes and which of them to jump to. */
export interface BytePattern {
  bytes: Uint8Array;
  anchor: number;
  anchorByte: number;
}

/** Prepare a needle: choose the byte whose occurrences the search jumps between. */
export function prepareBytes(needle: Uint8Array): BytePattern {
  let anchor = 0;
  for (let i = 1; i < needle.length; i++) if (RANK[needle[i]!]! < RANK[needle[anchor]!]!) anchor = i;
  return { bytes: needle, anchor, anchorByte: needle[anchor] ?? 0 };
}

/** Finds one byte: `Uint8Array#indexOf`, or the host's faster native search (see NativeHelpers.indexOfByte). */
export type ByteFind = (hay: Uint8Array, byte: number, from: number) => number;

/** The portable byte search. */
export const typedFind: ByteFind = (hay, byte, from) => hay.indexOf(byte, from);

/** Index of the first occurrence of `pattern` in `hay` at or after `from`, or -1. */
export function indexOfBytes(hay: Uint8Array, pattern: BytePattern, from = 0, find: ByteFind = typedFind): number {
  const needle = pattern.bytes;
  const n = needle.length;
  if (n === 0) return from <= hay.length ? from : -1;
  const { anchor, anchorByte } = pattern;
  const last = hay.length - n;
  let at = find(hay, anchorByte, from + anchor);
  while (at !== -1) {
    const start = at - anchor;
    if (start > last) return -1;
    let j = 0;
    while (j < n && hay[start + j] === needle[j]) j++;
    if (j === n) return start;
    at = find(hay, anchorByte, at + 1);
  }
  return -1;
}

/**
 * Whether hay[from..] holds a lone `\r` (one not followed by `\n`), which ends a line as `\n` does.
 * Text without any `\r` costs one native scan; a CRLF file one native jump per line.
 */
export function hasLoneCr(hay: Uint8Array, from: number, find: ByteFind = typedFind): boolean {
  for (let i = find(hay, 13, from); i !== -1; i = find(hay, 13, i + 1)) if (hay[i + 1] !== 10) return true;
  return false;
}

/**
 * Number of `\n` bytes in hay[from, to). A native search per line end cost a call per line, more
 * than a loop costs per byte on lines of source code; past 64 bytes the loop goes four words (16
 * bytes) at a time, each word's bytes that are not `\n` found with arithmetic alone and tallied
 * per byte lane, the lanes summed once per LANE_STEPS steps instead of once per word (the count was
 * the search's busiest function). The words are signed, which V8 keeps in 32-bit registers (an
 * unsigned word past 2^31 is not a small integer); with four words a step, a quarter less time on
 * a search's 4 KB files.
 */
export function countNewlines(hay: Uint8Array, from: number, to: number): number {
  let n = 0;
  const end = Math.min(to, hay.length);
  let i = from;
  if (end - i >= 64) {
    while ((hay.byteOffset + i) & 3) if (hay[i++] === 10) n++;
    const count = ((end - i) >>> 4) << 2;
    const first = (hay.byteOffset + i) >>> 2;
    const words = wordsOf(hay.buffer, first + count);
    for (let k = first, last = first + count; k < last; ) {
      const stop = Math.min(last, k + LANE_STEPS * 4);
      // two tallies of two words each, so no lane passes 2 * 2 * LANE_STEPS = 252
      let a = 0;
      let b = 0;
      for (; k < stop; k += 4) {
        // after the xor a `\n` byte is zero, the only byte whose top bit the rest leaves clear
        const w = words[k]! ^ 0x0a0a0a0a;
        const x = words[k + 1]! ^ 0x0a0a0a0a;
        const y = words[k + 2]! ^ 0x0a0a0a0a;
        const z = words[k + 3]! ^ 0x0a0a0a0a;
        a +=
          (((((w & 0x7f7f7f7f) + 0x7f7f7f7f) | w) >>> 7) & 0x01010101) +
          (((((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x) >>> 7) & 0x01010101);
        b +=
          (((((y & 0x7f7f7f7f) + 0x7f7f7f7f) | y) >>> 7) & 0x01010101) +
          (((((z & 0x7f7f7f7f) + 0x7f7f7f7f) | z) >>> 7) & 0x01010101);
      }
      // the lanes hold the bytes that are not `\n`
      const lanes = a + b;
      n -= (lanes & 0xff) + ((lanes >>> 8) & 0xff) + ((lanes >>> 16) & 0xff) + (lanes >>> 24);
    }
    n += count << 2;
    i += count << 2;
  }
  for (; i < end; i++) if (hay[i] === 10) n++;
  return n;
}

/** Steps of four words tallied before the lanes are summed: each byte lane must stay under 256. */
const LANE_STEPS = 63;

/**
 * The words of a whole buffer, the last one's kept: a search's files share their batch's buffer,
 * and a view made per call (per matching line) was 4% of what a search allocated. Only a
 * small buffer is kept, so no big file stays pinned by it.
 */
function wordsOf(buffer: ArrayBufferLike, least: number): Int32Array<ArrayBufferLike> {
  // a resizable buffer may have grown since its words were kept
  if (buffer === keptBuffer && keptWords.length >= least) return keptWords;
  const words = new Int32Array(buffer, 0, buffer.byteLength >>> 2);
  if (buffer.byteLength <= KEEP_WORDS_UP_TO) {
    keptBuffer = buffer;
    keptWords = words;
  }
  return words;
}
const KEEP_WORDS_UP_TO = 1 << 20;
let keptBuffer: ArrayBufferLike | null = null;
let keptWords: Int32Array<ArrayBufferLike> = new Int32Array(0);

/** Code points in a UTF-8 byte range: every byte that is not a continuation byte starts one. */
export function utf8CodePoints(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((bytes[i]! & 0xc0) !== 0x80) n++;
  return n;
}
