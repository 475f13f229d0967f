import { utf8CodePoints } from './bytes.js';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The line at bytes `[start, end)` (a final `\r` dropped) as capLine would show it, decoding only
 * the part shown: a match in a 60 MiB line decodes 500 characters, not the line.
 */
export function cappedUtf8Line(
  bytes: Uint8Array,
  start: number,
  end: number,
  matchColumn: number,
  matchChars: number,
  max: number,
): string {
  const stop = end > start && bytes[end - 1] === 13 ? end - 1 : end;
  // no more bytes than the cap: no more characters either
  if (stop - start <= max) return fatalUtf8.decode(bytes.subarray(start, stop));
  const total = utf8CodePoints(bytes, start, stop);
  if (total <= max) return fatalUtf8.decode(bytes.subarray(start, stop));
  let first = 0;
  if (matchColumn + matchChars > max) first = Math.min(Math.max(0, matchColumn - Math.floor(max / 4)), total - max);
  const from = advance(bytes, start, stop, first);
  const to = advance(bytes, from, stop, max);
  const head = first > 0 ? `[… ${first} characters before] ` : '';
  const tail = first + max < total ? ` [… line truncated: ${total - first - max} more characters]` : '';
  return head + fatalUtf8.decode(bytes.subarray(from, to)) + tail;
}

/** The byte offset `count` code points after `at` (never past `stop`). */
function advance(bytes: Uint8Array, at: number, stop: number, count: number): number {
  let n = 0;
  for (let i = at; i < stop; i++) {
    if ((bytes[i]! & 0xc0) === 0x80) continue;
    if (n === count) return i;
    n++;
  }
  return stop;
}
