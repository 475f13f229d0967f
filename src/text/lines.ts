/** How a text ends its lines; `cr` is a lone carriage return (classic Mac files). */
export type EolStyle = 'lf' | 'crlf' | 'cr' | 'mixed' | 'none';

/** A line ending: `\r` alone ends a line too, as in Codex's apply_patch and most editors. */
export type Eol = '\n' | '\r\n' | '\r';

const LINE_END = /\r\n|\r|\n/g;

/** The style of each line ending a text has, counted. */
function countEols(text: string): { lf: number; crlf: number; cr: number } {
  const counts = { lf: 0, crlf: 0, cr: 0 };
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) counts.lf++;
    return counts;
  }
  for (const m of text.matchAll(LINE_END)) {
    if (m[0] === '\n') counts.lf++;
    else if (m[0] === '\r\n') counts.crlf++;
    else counts.cr++;
  }
  return counts;
}

export function detectEol(text: string): EolStyle {
  const { lf, crlf, cr } = countEols(text);
  const kinds = (lf ? 1 : 0) + (crlf ? 1 : 0) + (cr ? 1 : 0);
  if (kinds > 1) return 'mixed';
  return crlf ? 'crlf' : cr ? 'cr' : lf ? 'lf' : 'none';
}

/** Lines without their terminators (`\n`, `\r\n` or a lone `\r`); a final line end does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.includes('\r') ? text.split(LINE_END) : text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Lines with their own terminators, so joining them gives the text back. A scan, not a split on
 * a look-behind pattern: V8 tries that pattern at every character, and blame and review split
 * every changed file this way (a fifth of a 100-file patch's time went there).
 */
export function splitKeepingEols(text: string): string[] {
  if (text === '') return [];
  const lines: string[] = [];
  let start = 0;
  if (!text.includes('\r')) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      lines.push(text.slice(start, i + 1));
      start = i + 1;
    }
  } else {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        lines.push(text.slice(start, i + 1));
        start = i + 1;
      }
    }
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * Whole lines of `text` (endings kept, as splitKeepingEols cuts them) for each `[start, count)`
 * range, the ranges in ascending order and not overlapping: one scan up to the last range, with
 * no string made per line (the persisted change log takes a change's new lines this way, from
 * files of thousands of lines).
 */
export function sliceLineRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): string[] {
  const plain = !text.includes('\r');
  /** the offset just past the line that starts at `from` (text.length when it is the last) */
  const endOf = (from: number): number => {
    if (plain) {
      const nl = text.indexOf('\n', from);
      return nl === -1 ? text.length : nl + 1;
    }
    for (let i = from; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) return i + 1;
    }
    return text.length;
  };
  const out: string[] = [];
  let line = 0;
  let at = 0;
  for (const [start, count] of ranges) {
    for (; line < start && at < text.length; line++) at = endOf(at);
    const from = at;
    for (; line < start + count && at < text.length; line++) at = endOf(at);
    out.push(text.slice(from, at));
  }
  return out;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  const { lf, crlf, cr } = countEols(text);
  return lf + crlf + cr + (/[\r\n]$/.test(text) ? 0 : 1);
}

/** 1-based line number of a character offset; a lone `\r` ends a line. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  const before = text.slice(0, offset);
  if (!before.includes('\r')) {
    for (let i = before.indexOf('\n'); i !== -1; i = before.indexOf('\n', i + 1)) n++;
    return n;
  }
  for (const m of before.matchAll(LINE_END)) {
    // the `\r` of a CRLF whose `\n` is at the offset still ends the offset's own line
    if (m.index === before.length - 1 && m[0] === '\r' && text.charCodeAt(offset) === 10) continue;
    n++;
  }
  return n;
}

/** Every line end as `\n`. */
export function toLf(text: string): string {
  return text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
}

/**
 * A view of a text with every line end (`\r\n`, lone `\r`) folded to `\n`, and the way back:
 * tools match and count on the folded view, then splice the original so every byte they did
 * not mean to change stays, and every line keeps its own ending.
 */
export class LfView {
  readonly text: string;
  /** offsets, in the folded text, of each removed `\r` of a CRLF (sorted) */
  private readonly removed: number[];

  constructor(readonly original: string) {
    const removed: number[] = [];
    if (!original.includes('\r')) {
      this.text = original;
    } else {
      let out = '';
      let last = 0;
      for (let i = original.indexOf('\r'); i !== -1; i = original.indexOf('\r', i + 1)) {
        out += original.slice(last, i);
        if (original.charCodeAt(i + 1) === 10) {
          removed.push(out.length);
          last = i + 1;
        } else {
          out += '\n';
          last = i + 1;
        }
      }
      this.text = out + original.slice(last);
    }
    this.removed = removed;
  }

  /** Offset in the original text of a folded offset. */
  toOriginal(offset: number): number {
    let lo = 0;
    let hi = this.removed.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.removed[mid]! < offset) lo = mid + 1;
      else hi = mid;
    }
    return offset + lo;
  }

  /**
   * Replace folded ranges. The k-th new line takes the ending of the k-th line the range
   * replaced (the last one once they run out), else the fallback: a mixed file stays mixed.
   */
  splice(ranges: Array<{ start: number; end: number; replacement: string }>, fallbackEol: Eol): string {
    let out = '';
    let cursor = 0;
    for (const { start, end, replacement } of ranges) {
      const from = this.toOriginal(start);
      const to = this.toOriginal(end);
      const region = this.original.slice(from, to);
      const eols = region.match(LINE_END) ?? [];
      let k = 0;
      const text = replacement.includes('\n')
        ? replacement.replace(/\n/g, () => eols[Math.min(k++, eols.length - 1)] ?? fallbackEol)
        : replacement;
      out += this.original.slice(cursor, from) + text;
      cursor = to;
    }
    return out + this.original.slice(cursor);
  }
}

/** The line ending new lines get in a file: the one most of its lines use, LF on a tie or when it has none. */
export function dominantEol(text: string): Eol {
  const { lf, crlf, cr } = countEols(text);
  if (cr > crlf && cr > lf) return '\r';
  return crlf > lf ? '\r\n' : '\n';
}
