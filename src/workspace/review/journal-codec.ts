import type { ChangedFile, LineAuthor, RecordedChange } from '../change-log.js';
import { stableHash } from './hunks.js';
import { sliceLineRanges } from '../../text/lines.js';
import { linesOf, regionsBetween } from './line-regions.js';

/**
 * One side of a file in a persisted change: absent (null), not kept (0), its text, or a reference
 * to the text the journal last knew for the path, checked by its hash (`{ h }`).
 */
type Side = null | 0 | string | { h: string };
/** Lines `[start, count)` of the text before (0-based) became `text` (whole lines, endings kept). */
type Edit = [number, number, string];
/** A line range of the text after and who wrote it: start, end, change id, tool, actor, call id, fork. */
type Author = [number, number, string, string, string | null, string | null, string];

interface FileRecord {
  p: string;
  f?: string;
  b: Side;
  /** the text after: a side, or edits of the text before */
  a: Side | { e: Edit[] };
  /** the text the file held after the change when the log kept none (a program's write), for blame */
  s?: string;
  /** lines of the text after that came from elsewhere, with their authors (a merge's fork lines) */
  o?: Author[];
}

/** A change as one journal file holds it (format 1). */
export interface ChangeRecord {
  v: 1;
  id: string;
  tool: string;
  at: string;
  actor?: string;
  call_id?: string;
  files: FileRecord[];
}

/** A change read back, with the text each file was seen to hold after it (for blame's replay). */
export interface JournalChange extends RecordedChange {
  /** per file, its text after the change as far as known (the log's, else what was read then) */
  seen: Array<string | null | undefined>;
}

/**
 * What the journal knows of each path's text at a point of its sequence: encoding a change
 * against it stores a file's text before the change as a reference when it is the same, and its
 * text after as the lines that changed, so a change costs about its size, not its files'.
 */
export class KnownTexts {
  private readonly texts = new Map<string, string>();

  /** The record of `change`, and the known texts moved on past it. */
  encode(change: JournalChange): ChangeRecord {
    const files = change.files.map((file, i) => {
      const out: FileRecord = { p: file.path, b: 0, a: 0 };
      if (file.from !== undefined) out.f = file.from;
      const known = this.texts.get(file.from ?? file.path);
      out.b =
        file.before === undefined
          ? 0
          : known !== undefined && known === file.before
            ? { h: stableHash(known) }
            : file.before;
      if (file.after === undefined || file.after === null) out.a = file.after === null ? null : 0;
      else if (typeof file.before === 'string') out.a = { e: edits(file.before, file.after) };
      else out.a = file.after;
      const seen = change.seen[i];
      if (file.after === undefined && typeof seen === 'string') out.s = seen;
      if (file.authors?.length)
        out.o = file.authors.map((a) => [a.start_line, a.end_line, a.change_id, a.tool, a.actor, a.call_id, a.fork]);
      this.advance(file, seen);
      return out;
    });
    return {
      v: 1,
      id: change.id,
      tool: change.tool,
      at: change.created_at,
      ...(change.actor !== undefined ? { actor: change.actor } : {}),
      ...(change.call_id !== undefined ? { call_id: change.call_id } : {}),
      files,
    };
  }

  /** The change a record holds, resolved against the known texts (moved on past it); null when it is not a record. */
  decode(value: unknown): JournalChange | null {
    if (!isRecord(value)) return null;
    const files: ChangedFile[] = [];
    const seen: Array<string | null | undefined> = [];
    for (const r of value.files) {
      const known = this.texts.get(r.f ?? r.p);
      const before = side(r.b, known);
      const after =
        r.a !== null && typeof r.a === 'object' && 'e' in r.a
          ? typeof before === 'string'
            ? applyEdits(before, r.a.e)
            : undefined
          : side(r.a, known);
      const file: ChangedFile = { path: r.p, before, after, ...(r.f !== undefined ? { from: r.f } : {}) };
      if (r.o?.length) file.authors = r.o.map(authorOf);
      files.push(file);
      const was = after === undefined && typeof r.s === 'string' ? r.s : after;
      seen.push(was);
      this.advance(file, was);
    }
    return {
      id: value.id,
      tool: value.tool,
      created_at: value.at,
      ...(typeof value.actor === 'string' ? { actor: value.actor } : {}),
      ...(typeof value.call_id === 'string' ? { call_id: value.call_id } : {}),
      files,
      seen,
    };
  }

  private advance(file: ChangedFile, seen: string | null | undefined): void {
    if (file.from !== undefined && file.from !== file.path) this.texts.delete(file.from);
    if (typeof seen === 'string') this.texts.set(file.path, seen);
    else this.texts.delete(file.path);
  }
}

function side(value: Side, known: string | undefined): string | null | undefined {
  if (value === null || typeof value === 'string') return value;
  if (value === 0) return undefined;
  return known !== undefined && stableHash(known) === value.h ? known : undefined;
}

function edits(before: string, after: string): Edit[] {
  const regions = regionsBetween(before, after);
  const added = sliceLineRanges(
    after,
    regions.map((r) => [r.newStart, r.newCount] as const),
  );
  return regions.map((r, i) => [r.oldStart, r.oldCount, added[i]!]);
}

function applyEdits(before: string, list: Edit[]): string {
  const lines = linesOf(before);
  const out: string[] = [];
  let at = 0;
  for (const [start, count, text] of list) {
    for (; at < start && at < lines.length; at++) out.push(lines[at]!);
    out.push(text);
    at = start + count;
  }
  for (; at < lines.length; at++) out.push(lines[at]!);
  return out.join('');
}

const authorOf = ([start_line, end_line, change_id, tool, actor, call_id, fork]: Author): LineAuthor => ({
  start_line,
  end_line,
  change_id,
  tool,
  actor,
  call_id,
  fork,
});

const isNameOrNull = (v: unknown) => v === null || typeof v === 'string';
const isAuthor = (v: unknown): v is Author =>
  Array.isArray(v) &&
  v.length === 7 &&
  Number.isInteger(v[0]) &&
  Number.isInteger(v[1]) &&
  typeof v[2] === 'string' &&
  typeof v[3] === 'string' &&
  isNameOrNull(v[4]) &&
  isNameOrNull(v[5]) &&
  typeof v[6] === 'string';

const isSide = (v: unknown): v is Side =>
  v === null || v === 0 || typeof v === 'string' || (isObject(v) && typeof v.h === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isEdit = (v: unknown): v is Edit =>
  Array.isArray(v) &&
  v.length === 3 &&
  Number.isInteger(v[0]) &&
  Number.isInteger(v[1]) &&
  v[0] >= 0 &&
  v[1] >= 0 &&
  typeof v[2] === 'string';

function isFileRecord(v: unknown): v is FileRecord {
  if (!isObject(v) || typeof v.p !== 'string' || (v.f !== undefined && typeof v.f !== 'string')) return false;
  if (v.s !== undefined && typeof v.s !== 'string') return false;
  if (v.o !== undefined && !(Array.isArray(v.o) && v.o.every(isAuthor))) return false;
  if (!isSide(v.b)) return false;
  return isSide(v.a) || (isObject(v.a) && Array.isArray(v.a.e) && v.a.e.every(isEdit));
}

function isRecord(v: unknown): v is ChangeRecord {
  return (
    isObject(v) &&
    v.v === 1 &&
    typeof v.id === 'string' &&
    typeof v.tool === 'string' &&
    typeof v.at === 'string' &&
    Array.isArray(v.files) &&
    v.files.every(isFileRecord)
  );
}
