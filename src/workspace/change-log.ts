import { decodeText, isDecodeFailure } from '../text/codec.js';
import { countLineChanges, MAX_COUNTED_EDIT, unifiedFileDiff, type LineChanges } from '../text/line-diff.js';
import { regionsBetween, type LineRegion } from './review/line-regions.js';

/** Files above this size are logged without their text. */
export const LOG_TEXT_LIMIT = 1024 * 1024;

/** Bytes as the change log keeps them: their text, or undefined when binary, undecodable or too big. */
export function textOfBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length > LOG_TEXT_LIMIT) return undefined;
  const decoded = decodeText(bytes);
  return isDecodeFailure(decoded) ? undefined : decoded.text;
}

/** One file touched by a change. `null` text means absent; `undefined` means not text or not kept. */
export interface ChangedFile {
  /** the file's root-relative path */
  path: string;
  /** its text before the change */
  before: string | null | undefined;
  /** its text after it */
  after: string | null | undefined;
  /** for a move: where the file was */
  from?: string;
  /**
   * Lines of the text after that someone other than the change's caller wrote, with their
   * authors: a merge brings a fork's lines with the fork's changes. Blame lays these over the
   * lines the change wrote; lines not named stay the change's.
   */
  authors?: LineAuthor[];
}

/** Who wrote a range of lines that a change brought in from elsewhere (a fork's change, for a merge). */
export interface LineAuthor {
  /** first line, 1-based, in the file's text after the change */
  start_line: number;
  /** last line, inclusive */
  end_line: number;
  /** the change that wrote them, in the change log of `fork` */
  change_id: string;
  /** that change's tool */
  tool: string;
  /** who made it, when its call said */
  actor: string | null;
  /** its tool call's id, when its call said */
  call_id: string | null;
  /** the fork whose change log holds the change: its id, then the ids of forks of it merged into it, joined by `/` */
  fork: string;
}

/** How a change touched one file. */
export type FileStatus = 'added' | 'modified' | 'deleted' | 'moved';

/** One file of a change: its path, how it changed and its line counts (`from` is the old path of a move). */
export interface ChangeFileSummary extends LineChanges {
  /** the file's root-relative path */
  path: string;
  /** how it changed */
  status: FileStatus;
  /** for a move: where it was */
  from?: string;
}

/** One recorded change, as `change_id` names it: the tool that made it, when, and its files. */
export interface ChangeSummary extends LineChanges {
  /** the change_id */
  id: string;
  /** the tool that made it */
  tool: string;
  /** when, ISO 8601 */
  created_at: string;
  /** the files it touched */
  files: ChangeFileSummary[];
  /** who made it, when the call named an actor (an agent, a person) */
  actor?: string;
  /** the tool call that made it, when the caller gave its id (a model's tool-call id) */
  call_id?: string;
}

/** Who made a change: the actor and tool call a caller names in `call(tool, args, { actor, call_id })`. */
export interface ChangeOrigin {
  /** who made it */
  actor?: string;
  /** the tool call's id */
  call_id?: string;
}

/** A change with its full unified diff, for a reviewer (the model's result carries only the change_id). */
export interface ChangeDetail extends ChangeSummary {
  /** the whole change as a unified diff */
  unified_diff: string;
}

/** What a change listener hears: the change's id, tool, paths, who made it and its files' text. */
export interface ChangeEvent extends ChangeOrigin {
  /** the change's id in the log */
  change_id: string;
  /** the tool that made it */
  tool: string;
  /** the paths it touched */
  paths: string[];
  /** the files as the log keeps them (do not change them) */
  files: readonly ChangedFile[];
}

/** Called after every recorded change with its id, tool and paths. */
export type ChangeListener = (event: ChangeEvent) => void;

interface Entry {
  summary: ChangeSummary;
  files: ChangedFile[];
  bytes: number;
}

/**
 * Every mutating call's diff, kept for a reviewer and out of the model's result. Bounded: the
 * oldest entries are dropped past `maxEntries` or `maxBytes` of kept text.
 */
export class ChangeLog {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<ChangeListener>();
  private counter = 0;
  private keptBytes = 0;

  constructor(private readonly limits = { maxEntries: 500, maxBytes: 64 * 1024 * 1024 }) {}

  /** Record a change made by `tool` and tell the listeners; returns its summary with a new id. */
  record(tool: string, files: ChangedFile[], origin: ChangeOrigin = {}): ChangeSummary {
    const id = `chg_${String(++this.counter).padStart(4, '0')}`;
    const summary = summarize(id, tool, new Date().toISOString(), files, origin);
    this.keep(summary, files);
    this.trim();
    const paths = summary.files.flatMap((f) => (f.from ? [f.from, f.path] : [f.path]));
    for (const listener of this.listeners) listener({ change_id: id, tool, paths, files, ...origin });
    return summary;
  }

  /**
   * Put back changes recorded earlier (read from the workspace's persisted change log, in the
   * order of their ids, newer than every kept one) without telling the listeners; the ids of new
   * changes go on after the highest.
   */
  restore(changes: readonly RecordedChange[]): void {
    for (const change of changes) {
      this.counter = Math.max(this.counter, changeNumber(change.id) ?? 0);
      this.keep(summarize(change.id, change.tool, change.created_at, change.files, change), change.files);
    }
    this.trim();
  }

  /** The summary of a kept change (no diff is made), or undefined. */
  summary(id: string): ChangeSummary | undefined {
    return this.entries.get(id)?.summary;
  }

  private keep(summary: ChangeSummary, files: ChangedFile[]): void {
    const bytes = files.reduce((n, f) => n + (f.before?.length ?? 0) + (f.after?.length ?? 0), 0);
    this.entries.set(summary.id, { summary, files, bytes });
    this.keptBytes += bytes;
  }

  /** The change with this id and its diff, or undefined once it has been dropped or never existed. */
  get(id: string): ChangeDetail | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const unified = entry.files
      .map((f) =>
        f.before === undefined || f.after === undefined
          ? `Binary or unrecorded file ${f.path}\n`
          : unifiedFileDiff(f.path, f.before, f.after, f.from ?? f.path),
      )
      .join('');
    return { ...entry.summary, unified_diff: unified };
  }

  /** The files of a kept change with their text before and after (for review by hunk), or undefined. */
  filesOf(id: string): readonly ChangedFile[] | undefined {
    return this.entries.get(id)?.files;
  }

  /** Every kept change, oldest first. */
  list(): ChangeSummary[] {
    return [...this.entries.values()].map((e) => e.summary);
  }

  /** Listen to new changes; the returned function stops listening. */
  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private trim(): void {
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.limits.maxEntries && this.keptBytes <= this.limits.maxBytes) break;
      if (this.entries.size === 1) break;
      this.entries.delete(id);
      this.keptBytes -= entry.bytes;
    }
  }
}

/** A change as it was recorded, to put back into a log with `restore`. */
export interface RecordedChange extends ChangeOrigin {
  /** its change_id */
  id: string;
  /** the tool that made it */
  tool: string;
  /** when, ISO 8601 */
  created_at: string;
  /** its files' text before and after */
  files: ChangedFile[];
}

/** The number in a change id (`chg_0042` is 42), or null for anything else. */
export function changeNumber(id: string): number | null {
  const m = /^chg_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

function summarize(
  id: string,
  tool: string,
  createdAt: string,
  files: readonly ChangedFile[],
  origin: ChangeOrigin,
): ChangeSummary {
  let added = 0;
  let removed = 0;
  const summaries = files.map((file): ChangeFileSummary => {
    const counts =
      file.before === undefined || file.after === undefined
        ? { added_lines: 0, removed_lines: 0 }
        : lineCounts(file.before, file.after);
    added += counts.added_lines;
    removed += counts.removed_lines;
    const status: FileStatus =
      file.from !== undefined && file.from !== file.path
        ? 'moved'
        : file.before === null
          ? 'added'
          : file.after === null
            ? 'deleted'
            : 'modified';
    return { path: file.path, status, ...counts, ...(status === 'moved' ? { from: file.from } : {}) };
  });
  return {
    id,
    tool,
    created_at: createdAt,
    files: summaries,
    added_lines: added,
    removed_lines: removed,
    ...(origin.actor !== undefined ? { actor: origin.actor } : {}),
    ...(origin.call_id !== undefined ? { call_id: origin.call_id } : {}),
  };
}

/**
 * A file's added and removed line counts, as countLineChanges gives them. When both texts end
 * every line with `\n` (no `\r`, nothing after the last `\n`), their lines with endings and
 * without are equal in the same places, so the diff blame and the persisted change log make of
 * the same two texts anyway (regionsBetween keeps its answer) gives the same counts: one line
 * diff per change instead of two, which was a tenth of a 100-file patch's time.
 */
function lineCounts(before: string | null, after: string | null): LineChanges {
  if (before === null || after === null || !endsEveryLine(before) || !endsEveryLine(after))
    return countLineChanges(before, after);
  return countsOf(regionsBetween(before, after));
}

const endsEveryLine = (text: string) => text === '' || (text.endsWith('\n') && !text.includes('\r'));

/** Counts from a shortest edit's regions, counted in bulk past MAX_COUNTED_EDIT as countLineChanges does. */
function countsOf(regions: readonly LineRegion[]): LineChanges {
  let added = 0;
  let removed = 0;
  for (const r of regions) {
    added += r.newCount;
    removed += r.oldCount;
  }
  if (added + removed <= MAX_COUNTED_EDIT) return { added_lines: added, removed_lines: removed };
  const first = regions[0]!;
  const last = regions[regions.length - 1]!;
  return {
    added_lines: last.newStart + last.newCount - first.newStart,
    removed_lines: last.oldStart + last.oldCount - first.oldStart,
  };
}
