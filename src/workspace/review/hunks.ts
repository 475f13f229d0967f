import type { ChangedFile } from '../change-log.js';
import { changedRegions, linesOf } from './line-regions.js';

/** Lines of unchanged text kept on each side of a hunk to find it again after the file moved on. */
export const CONTEXT_LINES = 3;

/** Where a hunk stands with its reviewer. */
export type HunkStatus = 'pending' | 'accepted' | 'rejected';

/**
 * One hunk of a recorded change: a run of consecutive lines that one file's change replaced.
 * Line numbers are 1-based; a hunk with no old (new) lines sits before line `old_start` (`new_start`).
 */
export interface Hunk {
  /** stable id: derived from the path, the place and the lines, so the same change gives the same id again */
  id: string;
  /** the change this hunk belongs to */
  change_id: string;
  /** the file's root-relative path after the change */
  path: string;
  /** first old line */
  old_start: number;
  /** how many lines it removed */
  old_lines: number;
  /** first new line */
  new_start: number;
  /** how many lines it added */
  new_lines: number;
  /** the removed lines, without their line endings */
  removed: string[];
  /** the added lines, without their line endings */
  added: string[];
  /** the change created the file (its one hunk adds every line) */
  created?: true;
  /** the change deleted the file (its one hunk removes every line) */
  deleted?: true;
  /** accepted, rejected or still open */
  status: HunkStatus;
  /** the reviewer's reason, for a rejected hunk */
  reason?: string;
}

/** A hunk with the exact lines (line endings kept) and the context a revert needs to find it. */
export interface HunkSource {
  hunk: Omit<Hunk, 'status' | 'reason'>;
  /** the removed lines, byte-exact */
  oldLines: string[];
  /** the added lines, byte-exact */
  newLines: string[];
  /** up to CONTEXT_LINES unchanged lines before the hunk in the changed file */
  before: string[];
  /** up to CONTEXT_LINES unchanged lines after it */
  after: string[];
}

const stripEol = (line: string) => line.replace(/\r?\n$|\r$/, '');

/** Two FNV-1a hashes of a string side by side: 12 hex digits, the same in every engine and session. */
export function stableHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
  return (hex(a) + hex(b)).slice(0, 12);
}

/** The hunks of one file of a change; none when the change did not keep its text (binary, too big, a program's write). */
export function hunksOfFile(changeId: string, file: ChangedFile): HunkSource[] {
  if (file.before === undefined || file.after === undefined) return [];
  const a = linesOf(file.before);
  const b = linesOf(file.after);
  return changedRegions(a, b).map((r) => {
    const oldLines = a.slice(r.oldStart, r.oldStart + r.oldCount);
    const newLines = b.slice(r.newStart, r.newStart + r.newCount);
    const id = `hk_${stableHash([file.path, r.oldStart, r.newStart, oldLines.join(''), '\0', newLines.join('')].join('\0'))}`;
    return {
      hunk: {
        id,
        change_id: changeId,
        path: file.path,
        old_start: r.oldStart + 1,
        old_lines: r.oldCount,
        new_start: r.newStart + 1,
        new_lines: r.newCount,
        removed: oldLines.map(stripEol),
        added: newLines.map(stripEol),
        ...(file.before === null ? { created: true as const } : {}),
        ...(file.after === null ? { deleted: true as const } : {}),
      },
      oldLines,
      newLines,
      before: b.slice(Math.max(0, r.newStart - CONTEXT_LINES), r.newStart),
      after: b.slice(r.newStart + r.newCount, r.newStart + r.newCount + CONTEXT_LINES),
    };
  });
}
