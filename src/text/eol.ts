import { diffArrays } from 'diff';
import { dominantEol, splitKeepingEols } from './lines.js';

const MAX_EDIT = 4000;

/**
 * Give new LF text the line endings of the file it replaces: lines that stay keep their own
 * ending (`\r\n`, `\n` or a lone `\r`, so a mixed file stays mixed outside the changed lines),
 * new lines take the file's dominant one. Text that already carries a `\r` is taken as the
 * caller wrote it.
 */
export function adoptLineEndings(previous: string, next: string): string {
  if (next.includes('\r') || !previous.includes('\r')) return next;
  const eol = dominantEol(previous);
  const oldLines = splitKeepingEols(previous);
  const newLines = next.split(/(?<=\n)/);
  const strip = (l: string) => l.replace(/\r\n?$/, '\n');
  const withEol = (l: string) => (l.endsWith('\n') && eol !== '\n' ? `${l.slice(0, -1)}${eol}` : l);
  const oldStripped = oldLines.map(strip);
  // A rewrite that keeps no line: the diff could only say that every line is new, after up to
  // MAX_EDIT rounds over both texts (a 6,000-line rewrite cost about a CPU-second).
  const before = new Set(oldStripped);
  if (!newLines.some((line) => before.has(line))) return newLines.map(withEol).join('');
  const parts = diffArrays(oldStripped, newLines, { maxEditLength: MAX_EDIT });
  if (!parts) return newLines.map(withEol).join('');
  let out = '';
  let oldIndex = 0;
  for (const part of parts) {
    if (part.removed) {
      oldIndex += part.value.length;
      continue;
    }
    if (part.added) {
      out += part.value.map(withEol).join('');
      continue;
    }
    for (let i = 0; i < part.value.length; i++) out += oldLines[oldIndex++]!;
  }
  return out;
}
