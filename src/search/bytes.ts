import { literalLines, type ByteFind, type LiteralBytes } from '../fs/literal-lines.js';

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
export type BytePattern = LiteralBytes;

/** Prepare a needle: choose the byte whose occurrences the search jumps between. */
export function prepareBytes(needle: Uint8Array): BytePattern {
  let anchor = 0;
  for (let i = 1; i < needle.length; i++) if (RANK[needle[i]!]! < RANK[needle[anchor]!]!) anchor = i;
  return { bytes: needle, anchor, anchorByte: needle[anchor] ?? 0 };
}

export type { ByteFind };

/** The portable byte search. */
export const typedFind: ByteFind = (hay, byte, from) => hay.indexOf(byte, from);

const portable = literalLines(typedFind, undefined);

/** Index of the first occurrence of `pattern` in `hay` at or after `from`, or -1 (portable: see literalLines). */
export function indexOfBytes(hay: Uint8Array, pattern: BytePattern, from = 0): number {
  return portable.indexOf(hay, pattern, from);
}

/** Number of `\n` bytes in hay[from, to) (see literalLines). */
export const countNewlines: (hay: Uint8Array, from: number, to: number) => number = portable.countNewlines;

/** Code points in a UTF-8 byte range: every byte that is not a continuation byte starts one. */
export function utf8CodePoints(bytes: Uint8Array, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) if ((bytes[i]! & 0xc0) !== 0x80) n++;
  return n;
}
