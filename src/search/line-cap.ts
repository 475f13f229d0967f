/**
 * Cap a line at `max` code points for a search result. A cut is marked so the model knows the
 * line goes on (and reads the file for the whole of it). When the match lies past the cap, the
 * window moves to show it. The work is linear in the line and allocates only the window: a
 * 60 MiB line once became an array of 62 million one-character strings here.
 */
export function capLine(line: string, matchColumn: number, matchChars: number, max: number): string {
  if (line.length <= max) return line;
  const total = codePoints(line, 0, line.length);
  if (total <= max) return line;
  let start = 0;
  if (matchColumn + matchChars > max) start = Math.min(Math.max(0, matchColumn - Math.floor(max / 4)), total - max);
  const end = start + max;
  const from = unitOffset(line, 0, start);
  const to = unitOffset(line, from, max);
  const head = start > 0 ? `[… ${start} characters before] ` : '';
  const tail = end < total ? ` [… line truncated: ${total - end} more characters]` : '';
  return head + line.slice(from, to) + tail;
}

/** Code points in `text[from, to)`; a lone surrogate counts as one. */
export function codePoints(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** The UTF-16 offset `count` code points after `from`. */
function unitOffset(text: string, from: number, count: number): number {
  let i = from;
  for (let n = 0; n < count && i < text.length; n++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      i += d >= 0xdc00 && d <= 0xdfff ? 2 : 1;
    } else i++;
  }
  return i;
}
