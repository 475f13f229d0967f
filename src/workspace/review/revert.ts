import { ToolError } from '../../contract/index.js';
import type { HunkSource } from './hunks.js';
import { linesOf } from './line-regions.js';

/** Where a hunk's added lines stand in the file now. */
interface Located {
  source: HunkSource;
  at: number;
}

const same = (lines: readonly string[], at: number, want: readonly string[]) =>
  at >= 0 && at + want.length <= lines.length && want.every((line, i) => lines[at + i] === line);

/** How many of the hunk's context lines still sit next to position `at` (the ones nearest count first). */
function contextScore(lines: readonly string[], at: number, source: HunkSource): number {
  let score = 0;
  for (let i = source.before.length - 1, j = at - 1; i >= 0 && j >= 0 && lines[j] === source.before[i]; i--, j--)
    score++;
  const end = at + source.newLines.length;
  for (let i = 0; i < source.after.length && lines[end + i] === source.after[i]; i++) score++;
  return score;
}

/**
 * Find a hunk's added lines in the file as it is now: where they still stand byte for byte, the
 * place with the most of its old neighbours wins, then the one nearest its recorded line. A hunk
 * that only removed lines is found by its neighbours alone, all of which must still be there.
 */
function locate(lines: readonly string[], source: HunkSource): number {
  const expected = source.hunk.new_start - 1;
  const full = source.before.length + source.after.length;
  let best = -1;
  let bestScore = -1;
  for (let at = 0; at + source.newLines.length <= lines.length; at++) {
    if (!same(lines, at, source.newLines)) continue;
    const score = contextScore(lines, at, source);
    if (source.newLines.length === 0 && score < full) continue;
    if (score > bestScore || (score === bestScore && Math.abs(at - expected) < Math.abs(best - expected))) {
      best = at;
      bestScore = score;
    }
  }
  return best;
}

const span = (h: HunkSource['hunk']) =>
  h.new_lines === 0 ? `after line ${h.new_start - 1}` : `lines ${h.new_start}-${h.new_start + h.new_lines - 1}`;

/**
 * The file's text with these hunks (all of one file, all of one change or several) taken back out,
 * or null when that leaves a file the change had created empty (the file goes). A hunk whose
 * lines the file no longer holds is PATCH_CONFLICT, one problem per hunk, and nothing is decided.
 */
export function revertHunks(current: string | null, sources: HunkSource[]): string | null {
  const path = sources[0]!.hunk.path;
  if (current === null) {
    const deletion = sources.find((s) => s.hunk.deleted);
    if (deletion && sources.length === 1) return deletion.oldLines.join('');
    throw conflict(path, sources, 'the file no longer exists');
  }
  const lines = linesOf(current);
  const located: Located[] = [];
  const missing: HunkSource[] = [];
  for (const source of sources) {
    if (source.hunk.deleted) {
      missing.push(source);
      continue;
    }
    const at = locate(lines, source);
    if (at === -1) missing.push(source);
    else located.push({ source, at });
  }
  if (missing.length) throw conflict(path, missing, 'the file has changed there since');
  located.sort((x, y) => x.at - y.at);
  for (let i = 1; i < located.length; i++) {
    const prev = located[i - 1]!;
    if (prev.at + prev.source.newLines.length > located[i]!.at)
      throw conflict(path, [located[i]!.source], 'it overlaps another hunk being rejected');
  }
  const out = [...lines];
  for (let i = located.length - 1; i >= 0; i--) {
    const { source, at } = located[i]!;
    out.splice(at, source.newLines.length, ...source.oldLines);
  }
  const text = out.join('');
  return text === '' && sources.some((s) => s.hunk.created) ? null : text;
}

function conflict(path: string, sources: HunkSource[], why: string): ToolError {
  return new ToolError(
    'PATCH_CONFLICT',
    `${sources.length === 1 ? 'a hunk' : `${sources.length} hunks`} of '${path}' cannot be rejected: ${why}`,
    {
      hint: 'Nothing changed. Review the file as it is now and undo that part by hand, or reject the later change first.',
      problems: sources.map((s) => ({
        path: s.hunk.id,
        message: `${path} ${span(s.hunk)} (${s.hunk.change_id}): ${why}`,
      })),
    },
  );
}
