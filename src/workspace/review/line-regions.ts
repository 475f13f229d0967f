import { countLines, splitKeepingEols } from '../../text/lines.js';
import { myersRegions, type LineRegion } from './myers-regions.js';

export type { LineRegion };

/** A text's lines, each with its own line ending, so joining them gives the text back byte for byte. */
export function linesOf(text: string | null): string[] {
  return text === null || text === '' ? [] : splitKeepingEols(text);
}

/**
 * The changed regions between two line lists, in order. Common leading and trailing lines are
 * trimmed before the diff, so an edit in a big file costs the size of the edit, not of the file.
 */
export function changedRegions(a: readonly string[], b: readonly string[]): LineRegion[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return [];
  if (start === endA || start === endB)
    return [{ oldStart: start, oldCount: endA - start, newStart: start, newCount: endB - start }];
  return myersRegions(a, b, start, endA, endB);
}

/** The last texts diffed, by their text after: blame and the persisted change log diff each change. */
const recent = new Map<string, { before: string; regions: readonly LineRegion[] }>();
let recentChars = 0;
/** What the memo may hold beyond texts the change log keeps anyway (characters, both sides). */
const RECENT_CHARS = 16 * 1024 * 1024;

/**
 * The changed regions between two texts, as {@link changedRegions} gives them for their lines.
 * Each change is diffed by the blame tracker and again by the persisted change log: the second
 * takes the first's answer (the regions are never changed by their users).
 */
export function regionsBetween(before: string, after: string): readonly LineRegion[] {
  // a new file (a clone brings thousands): every line added, counted without splitting or memo
  if (before === '')
    return after === '' ? [] : [{ oldStart: 0, oldCount: 0, newStart: 0, newCount: countLines(after) }];
  const hit = recent.get(after);
  if (hit !== undefined && hit.before === before) return hit.regions;
  const regions = changedRegions(linesOf(before), linesOf(after));
  const size = before.length + after.length;
  if (size > RECENT_CHARS) return regions;
  if (hit !== undefined) {
    recent.delete(after);
    recentChars -= hit.before.length + after.length;
  }
  while (recentChars + size > RECENT_CHARS || recent.size >= 1024) {
    const [oldest, entry] = recent.entries().next().value!;
    recent.delete(oldest);
    recentChars -= entry.before.length + oldest.length;
  }
  recent.set(after, { before, regions });
  recentChars += size;
  return regions;
}
