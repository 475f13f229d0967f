import { splitLines } from '../text/lines.js';

/** Where a failed exact match nearly matched, for the NO_MATCH hint. */
export interface NearMatch {
  line: number;
  kind: 'whitespace' | 'first_line';
  text: string;
}

const squash = (s: string) => s.trim().replace(/\s+/g, ' ');

/**
 * Look for `needle` ignoring whitespace differences (indentation, trailing spaces, runs of
 * blanks), else for its first non-blank line alone. Lines are 1-based.
 */
export function findNearMatch(haystack: string, needle: string): NearMatch | null {
  const lines = splitLines(haystack);
  const wanted = splitLines(needle).map(squash);
  while (wanted.length && wanted[0] === '') wanted.shift();
  while (wanted.length && wanted[wanted.length - 1] === '') wanted.pop();
  if (wanted.length === 0) return null;
  const squashed = lines.map(squash);
  for (let i = 0; i + wanted.length <= squashed.length; i++) {
    let j = 0;
    while (j < wanted.length && squashed[i + j] === wanted[j]) j++;
    if (j === wanted.length)
      return { line: i + 1, kind: 'whitespace', text: excerpt(lines.slice(i, i + wanted.length)) };
  }
  if (wanted.length > 1) {
    const first = squashed.indexOf(wanted[0]!);
    if (first !== -1)
      return { line: first + 1, kind: 'first_line', text: excerpt(lines.slice(first, first + wanted.length)) };
  }
  // A single-line needle may sit inside a longer line with different spacing.
  if (wanted.length === 1) {
    const i = squashed.findIndex((l) => l.includes(wanted[0]!));
    if (i !== -1) return { line: i + 1, kind: 'whitespace', text: excerpt([lines[i]!]) };
  }
  return null;
}

function excerpt(lines: string[]): string {
  const text = lines.slice(0, 6).join('\n');
  return text.length > 400 ? `${text.slice(0, 400)}...` : text;
}
