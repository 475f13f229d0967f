/** Finds one byte from an index: `Uint8Array#indexOf`, or the host's faster native search. */
export type ByteFind = (hay: Uint8Array, byte: number, from: number) => number;

/** A literal prepared for repeated searches: its bytes and which of them a search jumps to (see prepareBytes). */
export interface LiteralBytes {
  /** the literal's UTF-8 bytes */
  bytes: Uint8Array;
  /** the index in `bytes` of the byte a search jumps to (its rarest, as prepareBytes judges) */
  anchor: number;
  /** that byte */
  anchorByte: number;
}

/**
 * What `lines` answers besides a count of matching lines: the file is not for it (a UTF-16 byte
 * order mark, or a lone `\r` line end: its lines are numbered on its text), it looks binary (a
 * NUL in its first 8 KiB), or it is not UTF-8.
 */
export const LINES_NOT_HERE = -1;
export const LINES_BINARY = -2;
export const LINES_NOT_UTF8 = -3;

/** The line search of a literal in UTF-8 bytes, built for a host's byte search (see literalLines). */
export interface LiteralLineSearch {
  /**
   * The lines of `bytes` that hold `literal`, after line `afterLine` (1-based), up to the
   * `most`th: four numbers each pushed onto `into` (the line, its first byte, where it ends: its
   * `\n` or the end of the bytes, and where the literal starts). Returns how many, 0 when the literal is
   * not in the file at all (which is answered without looking at the rest: a binary file without
   * it is simply one without a match), or LINES_NOT_HERE, LINES_BINARY or LINES_NOT_UTF8.
   */
  lines(bytes: Uint8Array, literal: LiteralBytes, afterLine: number, most: number, into: number[]): number;
  indexOf(hay: Uint8Array, literal: LiteralBytes, from: number): number;
  /** Number of `\n` bytes in hay[from, to). */
  countNewlines(hay: Uint8Array, from: number, to: number): number;
}

/**
 * The literal line search over a host's byte search and UTF-8 check (each natively where the
 * host has them). A search's read helper thread runs it on each file it reads, beside the
 * search's own thread, which then only decodes the lines found: self-contained (it uses nothing
 * but its arguments and builtins), since the helper's source is made from this function's.
 */
export function literalLines(find: ByteFind, isUtf8: ((bytes: Uint8Array) => boolean) | undefined): LiteralLineSearch {
  // the exported codes again: this function's source stands alone on a helper thread
  const LINES_NOT_HERE_CODE = -1;
  const LINES_BINARY_CODE = -2;
  const LINES_NOT_UTF8_CODE = -3;
  const SNIFF = 8192;
  /** Steps of four words tallied before the lanes are summed: each byte lane must stay under 256. */
  const LANE_STEPS = 63;
  const KEEP_WORDS_UP_TO = 1 << 20;
  let keptBuffer: ArrayBufferLike | null = null;
  let keptWords: Int32Array<ArrayBufferLike> = new Int32Array(0);
  const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

  /**
   * The words of a whole buffer, the last one's kept: a search's files share their batch's
   * buffer, and a view made per call (per matching line) was 4% of what a search allocated.
   * Only a small buffer is kept, so no big file stays pinned by it.
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

  /**
   * A native search per line end cost a call per line, more than a loop costs per byte on lines
   * of source code; past 64 bytes the loop goes four words (16 bytes) at a time, each word's bytes
   * that are not `\n` found with arithmetic alone and tallied per byte lane, the lanes summed once
   * per LANE_STEPS steps instead of once per word. The words are signed, which V8 keeps in 32-bit
   * registers (an unsigned word past 2^31 is not a small integer).
   */
  function countNewlines(hay: Uint8Array, from: number, to: number): number {
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

  /** Jumps (natively) to the literal's rarest byte and compares the rest in place. */
  function indexOf(hay: Uint8Array, literal: LiteralBytes, from: number): number {
    const needle = literal.bytes;
    const n = needle.length;
    if (n === 0) return from <= hay.length ? from : -1;
    const { anchor, anchorByte } = literal;
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
   * Whether hay[from..] holds a lone `\r` (one not followed by `\n`), which ends a line as `\n`
   * does. Text without any `\r` costs one native scan; a CRLF file one native jump per line.
   */
  function hasLoneCr(hay: Uint8Array, from: number): boolean {
    for (let i = find(hay, 13, from); i !== -1; i = find(hay, 13, i + 1)) if (hay[i + 1] !== 10) return true;
    return false;
  }

  function validUtf8(body: Uint8Array): boolean {
    if (isUtf8) return isUtf8(body);
    try {
      fatalUtf8.decode(body);
      return true;
    } catch {
      return false;
    }
  }

  function lines(bytes: Uint8Array, literal: LiteralBytes, afterLine: number, most: number, into: number[]): number {
    // detectBom's byte order marks, again: this function stands alone (and the fs layer sits below text's codec)
    const b0 = bytes[0];
    const b1 = bytes[1];
    if (bytes.length >= 2 && ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff))) return LINES_NOT_HERE_CODE;
    const bodyStart = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let at = indexOf(bytes, literal, bodyStart);
    if (at === -1) return 0;
    if (find(bytes.length > SNIFF ? bytes.subarray(0, SNIFF) : bytes, 0, 0) !== -1) return LINES_BINARY_CODE;
    if (!validUtf8(bodyStart === 0 ? bytes : bytes.subarray(bodyStart))) return LINES_NOT_UTF8_CODE;
    // the line numbers below count `\n` only: a file with a lone `\r` line end (rare) is numbered on its text
    if (hasLoneCr(bytes, bodyStart)) return LINES_NOT_HERE_CODE;
    let found = 0;
    let line = 1;
    let counted = bodyStart;
    while (at !== -1) {
      const start = at <= bodyStart ? bodyStart : Math.max(bodyStart, bytes.lastIndexOf(10, at - 1) + 1);
      line += countNewlines(bytes, counted, start);
      counted = start;
      const newline = find(bytes, 10, at);
      const end = newline === -1 ? bytes.length : newline;
      if (line > afterLine) {
        into.push(line, start, end, at);
        if (++found >= most) break;
      }
      at = end >= bytes.length ? -1 : indexOf(bytes, literal, end + 1);
    }
    return found;
  }
  return { lines, indexOf, countNewlines };
}
