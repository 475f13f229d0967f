import { createTwoFilesPatch } from 'diff';
import { splitLines } from './lines.js';

export interface LineChanges {
  /** lines added */
  added_lines: number;
  /** lines removed */
  removed_lines: number;
}

/** Past this many lines added plus removed, a change is counted in bulk (every line between the first and last change). */
export const MAX_COUNTED_EDIT = 2000;

/**
 * Added and removed line counts as a line diff gives them. Common leading and trailing lines are
 * trimmed first, so a small edit in a big file costs little; a huge rewrite is counted in bulk.
 */
export function countLineChanges(before: string | null, after: string | null): LineChanges {
  const a = before === null ? [] : splitLines(before);
  const b = after === null ? [] : splitLines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length === 0 || midB.length === 0) return { added_lines: midB.length, removed_lines: midA.length };
  const edits = shortestEditLength(midA, midB, MAX_COUNTED_EDIT);
  if (edits === -1) return { added_lines: midB.length, removed_lines: midA.length };
  // Every shortest edit script has the same size, and adds exactly as many more lines than it removes as b is longer than a.
  const grow = midB.length - midA.length;
  return { added_lines: (edits + grow) / 2, removed_lines: (edits - grow) / 2 };
}

/**
 * The size of a shortest edit script from `a` to `b` (lines added plus removed), or -1 when it is
 * over `max`. Myers' greedy O((N+M)D) search, keeping only the furthest point on each diagonal:
 * counting needs no path, so nothing is allocated but one array.
 */
function shortestEditLength(a: string[], b: string[], max: number): number {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(max, n + m);
  const offset = limit + 1;
  const furthest = new Int32Array(2 * limit + 3);
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && furthest[offset + k - 1]! < furthest[offset + k + 1]!)
          ? furthest[offset + k + 1]!
          : furthest[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      furthest[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return -1;
}

/** A git-style unified diff of one file; `null` sides are a creation or a deletion. */
export function unifiedFileDiff(path: string, before: string | null, after: string | null, fromPath = path): string {
  return createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${fromPath}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
    undefined,
    undefined,
    { context: 3 },
  ).replace(/^={3,}\n/m, '');
}
