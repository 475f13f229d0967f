/**
 * Cap a line at `max` code points for a search result. A cut is marked so the model knows the
 * line goes on (and reads the file for the whole of it). When the match lies past the cap, the
 * window moves to show it.
 */
export function capLine(line: string, matchColumn: number, matchChars: number, max: number): string {
  if (line.length <= max) return line;
  const chars = [...line];
  if (chars.length <= max) return line;
  let start = 0;
  if (matchColumn + matchChars > max)
    start = Math.min(Math.max(0, matchColumn - Math.floor(max / 4)), chars.length - max);
  const end = start + max;
  const head = start > 0 ? `[… ${start} characters before] ` : '';
  const tail = end < chars.length ? ` [… line truncated: ${chars.length - end} more characters]` : '';
  return head + chars.slice(start, end).join('') + tail;
}
