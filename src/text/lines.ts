/** How a text ends its lines. */
export type EolStyle = 'lf' | 'crlf' | 'mixed' | 'none';

export function detectEol(text: string): EolStyle {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
    if (crlf && lf) return 'mixed';
  }
  return crlf ? 'crlf' : lf ? 'lf' : 'none';
}

/** Lines without their terminators; a final newline does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

export function countLines(text: string): number {
  if (text === '') return 0;
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return text.endsWith('\n') ? n : n + 1;
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

export function toLf(text: string): string {
  return text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
}

/**
 * A view of a text with CRLF folded to LF, and the way back: tools match and count on the
 * folded view, then splice the original so every byte they did not mean to change stays.
 */
export class LfView {
  readonly text: string;
  /** offsets, in the folded text, of each removed `\r` (sorted) */
  private readonly removed: number[];

  constructor(readonly original: string) {
    const removed: number[] = [];
    if (!original.includes('\r\n')) {
      this.text = original;
    } else {
      let out = '';
      let last = 0;
      for (let i = original.indexOf('\r\n'); i !== -1; i = original.indexOf('\r\n', i + 2)) {
        out += original.slice(last, i);
        removed.push(out.length);
        last = i + 1;
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

  /** Replace folded ranges; new text takes the line ending its surroundings use. */
  splice(ranges: Array<{ start: number; end: number; replacement: string }>, fallbackEol: '\n' | '\r\n'): string {
    let out = '';
    let cursor = 0;
    for (const { start, end, replacement } of ranges) {
      const from = this.toOriginal(start);
      const to = this.toOriginal(end);
      const region = this.original.slice(from, to);
      const eol = region.includes('\r\n') ? '\r\n' : region.includes('\n') ? '\n' : fallbackEol;
      out += this.original.slice(cursor, from) + (eol === '\n' ? replacement : replacement.replace(/\n/g, '\r\n'));
      cursor = to;
    }
    return out + this.original.slice(cursor);
  }
}

/** The line ending new lines get in a file: its own when it has one style, else LF. */
export function dominantEol(text: string): '\n' | '\r\n' {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}
