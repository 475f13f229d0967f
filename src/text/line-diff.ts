import { createTwoFilesPatch, diffArrays } from 'diff';
import { splitLines } from './lines.js';

export interface LineChanges {
  /** lines added */
  added_lines: number;
  /** lines removed */
  removed_lines: number;
}

const MAX_EDIT = 2000;

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
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length === 0 || midB.length === 0) return { added_lines: midB.length, removed_lines: midA.length };
  const parts = diffArrays(midA, midB, { maxEditLength: MAX_EDIT });
  if (!parts) return { added_lines: midB.length, removed_lines: midA.length };
  let added = 0;
  let removed = 0;
  for (const part of parts) {
    if (part.added) added += part.count ?? part.value.length;
    else if (part.removed) removed += part.count ?? part.value.length;
  }
  return { added_lines: added, removed_lines: removed };
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
