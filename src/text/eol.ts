import { diffArrays } from 'diff';
import { dominantEol } from './lines.js';

const MAX_EDIT = 4000;

/**
 * Give new LF text the line endings of the file it replaces: lines that stay keep their own
 * ending (so a mixed file stays mixed outside the changed lines), new lines take the file's
 * dominant one. Text that already carries a `\r` is taken as the caller wrote it.
 */
export function adoptLineEndings(previous: string, next: string): string {
  if (next.includes('\r') || !previous.includes('\r\n')) return next;
  const eol = dominantEol(previous);
  const oldLines = previous.split(/(?<=\n)/);
  const newLines = next.split(/(?<=\n)/);
  const strip = (l: string) => (l.endsWith('\r\n') ? `${l.slice(0, -2)}\n` : l);
  const withEol = (l: string) => (l.endsWith('\n') && eol === '\r\n' ? `${l.slice(0, -1)}\r\n` : l);
  const parts = diffArrays(oldLines.map(strip), newLines, { maxEditLength: MAX_EDIT });
  if (!parts) return newLines.map(withEol).join('');
  let out = '';
  let oldIndex = 0;
  for (const part of parts) {
    if (part.removed) { oldIndex += part.value.length; continue; }
    if (part.added) { out += part.value.map(withEol).join(''); continue; }
    for (let i = 0; i < part.value.length; i++) out += oldLines[oldIndex++]!;
  }
  return out;
}
