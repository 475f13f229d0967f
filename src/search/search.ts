import type { PlainFile, WorkspaceFs } from '../fs/types.js';
import { PASSAGES, ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { readFileCounted, type CountedFile } from '../fs/helpers.js';
import { hardLinkRefusal, hardLinkSkipReason, isRefusedHardLink } from '../workspace/hard-links.js';
import { displayPath, type PathResolver, type WorkspacePath } from '../workspace/paths.js';
import type { CursorPosition } from './cursor.js';
import { comparePaths, type PathTest } from './glob.js';
import { BATCH, SearchContinuation, type SlotRead } from './read-window.js';
import type { Matcher } from './matcher.js';
import { MAX_LINE_SEARCH, scanFile, type LineMatch, type ScanOutcome } from './scan.js';
import {
  noteUnreadable,
  walkRuns,
  type Unreadable,
  type WalkBudget,
  type WalkEntry,
  type WalkOptions,
} from './walk.js';

/** A match with the file it is in (scanFile names the file in each match it makes). */
export type FileLineMatch = LineMatch;

/** One page of one query, with everything already resolved and validated. */
export interface SearchSpec {
  matcher: Matcher;
  /** a file or folder, already resolved and confined */
  start: WorkspacePath;
  include: PathTest | null;
  /** continue after this match (from a cursor) */
  resume: CursorPosition | null;
  /**
   * the walk and reads the page that returned `resume` left ahead of its end (see SearchPage.rest):
   * the page goes on with them instead of walking to `resume` again; only ever the page's own
   */
  continueFrom?: SearchContinuation;
  /** hand a full page's walk and read-ahead on in SearchPage.rest, for the page its cursor asks for next */
  keepRest?: boolean;
  maxMatches: number;
  context: number;
  maxLineChars: number;
  /** files read at once (default 24); a backend that reads a folder's files in one call may have three such calls out */
  concurrency?: number;
  /** Date.now() when the call's time budget ends: the page stops there with what it found */
  deadline?: number;
  /** filled with the folders and files that could not be read */
  unreadable?: Unreadable[];
  /** search files with more than one hard link too (the policy's allowHardLinks); by default they are skipped and reported */
  allowHardLinks?: boolean;
  /** told every so many files scanned (and awaited); a read-only search may stop at any point, so a throw here ends it */
  onFiles?: (scanned: number) => void | Promise<void>;
}

/** How many files a search scans between progress reports. */
const PROGRESS_EVERY = 200;

export interface SearchPage {
  matches: FileLineMatch[];
  /** more matches exist after the last one returned */
  truncated: boolean;
  /** set when the time budget ended the page: where the next page starts (after this line) */
  resumeAfter?: CursorPosition;
  /**
   * set when the page ended full: its walk and the reads made past its end, for the page after
   * the last match returned (SearchSpec.continueFrom); drop it with `close()` when not used
   */
  rest?: SearchContinuation;
}

const DEFAULT_CONCURRENCY = 24;

/**
 * Search files in walk order. Reads run ahead with bounded concurrency while results are taken
 * strictly in order, and nothing new is read once one match more than the page holds is known.
 * A folder's files travel together, read in one backend call, and each file is scanned as the
 * page takes it, so the bookkeeping is paid per batch rather than per file. A full page hands its
 * walk and reads on (`rest`), for its cursor's page to go on with.
 */
export async function searchFiles(fs: WorkspaceFs, paths: PathResolver, spec: SearchSpec): Promise<SearchPage> {
  if (spec.start.stat?.type === 'file') return searchOneFile(fs, spec);
  // A folder this page finds in place (when listing it) is read through what that found, not
  // checked again; one a page before it found is checked again (see ResolveOptions).
  const resolvedSince = performance.now();
  const budget: WalkBudget | undefined = spec.deadline === undefined ? undefined : { deadline: spec.deadline };
  let query = spec.continueFrom?.fs === fs && spec.continueFrom.paths === paths ? spec.continueFrom : undefined;
  if (query) {
    query.walkOptions.budget = budget;
    query.walkOptions.resolvedSince = resolvedSince;
    query.walkOptions.unreadable = spec.unreadable;
    if (spec.unreadable)
      for (const note of query.carried) if (spec.unreadable.length < 1000) spec.unreadable.push(note);
    query.carried = [];
  } else {
    const walkOptions: WalkOptions = {
      gitignore: true,
      links: 'follow',
      resumeAt: spec.resume?.path,
      budget,
      unreadable: spec.unreadable,
      noteSpecial: true,
      resolvedSince,
    };
    const runs = walkRuns(fs, paths, spec.start, walkOptions, BATCH);
    query = new SearchContinuation(
      fs,
      paths,
      runs,
      walkOptions,
      spec.include,
      spec.concurrency ?? DEFAULT_CONCURRENCY,
      spec.matcher.bytes,
    );
  }
  const found: FileLineMatch[] = [];
  /** files whose outcome was taken onto the page */
  let taken = 0;
  let scanned = 0;
  /**
   * Near the page's end, no more read ahead than the matches still wanted are likely to need (at
   * the rate seen so far, twice over): a cursor's pages each read and scanned three batches past
   * their end. Only what is read changes, never what is taken.
   */
  const needed = () => {
    if (found.length === 0) return Infinity;
    return Math.ceil(((spec.maxMatches + 1 - found.length) * taken) / found.length) * 2;
  };
  let resumeAfter: CursorPosition | undefined;
  /** Take one file's outcome in order; true when the page must end here (a file stopped inside). */
  const take = (rel: string, outcome: ScanOutcome | null): boolean => {
    taken++;
    if (outcome && 'skipped' in outcome) {
      if (outcome.literalInside && spec.unreadable && spec.unreadable.length < 1000)
        spec.unreadable.push({ path: rel, reason: UNDECODABLE_WITH_LITERAL });
    } else if (outcome) {
      for (const m of outcome.matches) found.push(m);
      if (outcome.stoppedAfter !== undefined) {
        resumeAfter = { path: rel, line: outcome.stoppedAfter, column: 0 };
        return true;
      }
    }
    return false;
  };
  /** The outcome of file `i` of a slot, scanned for no more than the page can still hold. */
  const scanAt = (entry: WalkEntry, read: SlotRead, i: number) =>
    scanEntry(fs, entry, read, i, spec, Math.max(1, spec.maxMatches + 1 - found.length));
  let head = query.head;
  let at = query.headAt;
  query.head = null;
  /** where the page ended full: the file of its head it ended in */
  let endedAt = -1;
  try {
    pages: while (found.length <= spec.maxMatches) {
      await query.fill(needed());
      if (!head) {
        head = query.shift() ?? null;
        if (!head) break;
        at = 0;
      }
      // not while waiting for the page's first files: a small page often ends in them
      if (head.done !== true && taken > 0) await query.readWhileWaiting(head, needed());
      const read = await head.read;
      for (let i = at; i < head.entries.length; i++) {
        if (spec.onFiles && ++scanned % PROGRESS_EVERY === 0) await spec.onFiles(scanned);
        const entry = head.entries[i]!;
        const scanning = scanAt(entry, read, i);
        if (take(entry.rel, scanning instanceof Promise ? await scanning : scanning)) break pages;
        if (found.length > spec.maxMatches) {
          endedAt = i;
          break pages;
        }
        if (
          spec.deadline !== undefined &&
          Date.now() > spec.deadline &&
          (i + 1 < head.entries.length || query.window.length > 0 || query.walking)
        ) {
          // the budget ended the page: the rest of this slot (already read) still counts, the next page starts after it
          let last = entry.rel;
          for (let j = i + 1; j < head.entries.length && found.length <= spec.maxMatches; j++) {
            last = head.entries[j]!.rel;
            const more = scanAt(head.entries[j]!, read, j);
            if (take(last, more instanceof Promise ? await more : more)) break pages;
          }
          resumeAfter = { path: last, line: Number.MAX_SAFE_INTEGER, column: 0 };
          break pages;
        }
      }
      head = null;
    }
  } catch (error) {
    await query.close();
    throw error;
  }
  if (!resumeAfter && budget?.stoppedAt !== undefined) resumeAfter = { path: budget.stoppedAt, line: 0, column: 0 };
  const page = finishPage(found, spec.maxMatches, resumeAfter);
  if (spec.keepRest && endedAt >= 0 && !resumeAfter && head) {
    query.head = head;
    query.headAt = endedAt;
    query.carried = carriedNotes(spec.unreadable, found[spec.maxMatches - 1]!.path, head.entries[endedAt]!.rel);
    page.rest = query;
  } else await query.close();
  return page;
}

/**
 * What a page walking from `from` (the last match returned) would report skipped again: the notes
 * at or after it in walk order, but those of `next` (the file the page goes on with, scanned again).
 */
function carriedNotes(notes: Unreadable[] | undefined, from: string, next: string): Unreadable[] {
  if (!notes) return [];
  return notes.filter((n) => n.path !== next && comparePaths(n.path, from) >= 0);
}

/** Cut to the page size; a page the budget ended is truncated unless the cut already says so. */
function finishPage(found: FileLineMatch[], maxMatches: number, resumeAfter: CursorPosition | undefined): SearchPage {
  if (found.length > maxMatches) return { matches: found.slice(0, maxMatches), truncated: true };
  return resumeAfter ? { matches: found, truncated: true, resumeAfter } : { matches: found, truncated: false };
}

/**
 * Why a file holding the literal's bytes was not searched: grep and ripgrep would show its lines,
 * so a search of many files lists it rather than answering as if it had none.
 */
export const UNDECODABLE_WITH_LITERAL =
  'DECODE_ERROR: it holds the pattern but is not valid UTF-8 or UTF-16, so it was not searched as text; read it with an explicit encoding';

const NO_MATCH: ScanOutcome = Object.freeze({ matches: Object.freeze([]) as unknown as LineMatch[] });

function countedOf(file: PlainFile | null | undefined): CountedFile | null {
  if (!file?.bytes) return null;
  const { bytes, literalLines } = file;
  const { nlink } = file.stat;
  return literalLines === undefined ? { bytes, nlink } : { bytes, nlink, literalLines };
}

/**
 * Scan file `i` of a slot, synchronously where its bytes are at hand; a file its batch could not
 * read is read alone, which says why. A file that cannot be read is skipped and reported.
 */
function scanEntry(
  fs: WorkspaceFs,
  entry: WalkEntry,
  read: SlotRead,
  i: number,
  spec: SearchSpec,
  limit: number,
): ScanOutcome | null | Promise<ScanOutcome | null> {
  const afterLine = spec.resume && entry.rel === spec.resume.path ? spec.resume.line : 0;
  const file = 'batch' in read ? read.batch?.[i] : undefined;
  // found without the literal where it was read: nothing to scan (a third of a search's files)
  if (file?.literalLines?.length === 0 && !isRefusedHardLink(file.stat.nlink, spec.allowHardLinks === true))
    return NO_MATCH;
  const counted = file !== undefined ? countedOf(file) : 'file' in read ? read.file : null;
  try {
    if (counted) return caught(spec, entry.rel, scanCounted(entry.rel, counted, spec, afterLine, limit));
    if ('error' in read) throw read.error;
  } catch (error) {
    noteUnreadable(spec.unreadable, entry.rel, error);
    return null;
  }
  return caught(
    spec,
    entry.rel,
    readFileCounted(fs, entry.abs).then((file) => scanCounted(entry.rel, file, spec, afterLine, limit)),
  );
}

/** A scan that fails later (a file that vanished, one that cannot be read) is skipped and reported. */
function caught(
  spec: SearchSpec,
  rel: string,
  outcome: ScanOutcome | null | Promise<ScanOutcome | null>,
): ScanOutcome | null | Promise<ScanOutcome | null> {
  if (!(outcome instanceof Promise)) return outcome;
  return outcome.catch((error: unknown) => {
    noteUnreadable(spec.unreadable, rel, error);
    return null;
  });
}

/** Scan one file's bytes: synchronous unless the scan must decode and pace itself. */
function scanCounted(
  rel: string,
  { bytes, nlink, literalLines }: CountedFile,
  spec: SearchSpec,
  afterLine: number,
  limit: number,
): ScanOutcome | null | Promise<ScanOutcome> {
  // Its other name may be outside the workspace: its text is not returned, and the answer says so.
  if (isRefusedHardLink(nlink, spec.allowHardLinks === true)) {
    if (spec.unreadable && spec.unreadable.length < 1000)
      spec.unreadable.push({ path: rel, reason: hardLinkSkipReason(nlink!) });
    return null;
  }
  const outcome = scanFile(
    bytes,
    spec.matcher,
    {
      path: rel,
      afterLine,
      limit,
      context: spec.context,
      maxLineChars: spec.maxLineChars,
      deadline: spec.deadline,
      binaryAsNoMatch: true,
    },
    literalLines,
  );
  if (outcome instanceof Promise)
    return outcome.then((o) => {
      noteLongLine(spec, rel, o);
      return o;
    });
  noteLongLine(spec, rel, outcome);
  return outcome;
}

/** A file named directly is searched even if hidden or ignored; a binary or undecodable one is an error. */
async function searchOneFile(fs: WorkspaceFs, spec: SearchSpec): Promise<SearchPage> {
  const rel = spec.start.rel;
  const shown = displayPath(rel);
  if (spec.include && !spec.include(rel)) return { matches: [], truncated: false };
  const { bytes, nlink } = await readFileCounted(fs, spec.start.abs).catch((e) => {
    throw toToolError(e, shown);
  });
  if (isRefusedHardLink(nlink, spec.allowHardLinks === true)) throw hardLinkRefusal(shown, nlink!);
  const afterLine = spec.resume && spec.resume.path === rel ? spec.resume.line : 0;
  const outcome = await scanFile(bytes, spec.matcher, {
    path: rel,
    afterLine,
    limit: spec.maxMatches + 1,
    context: spec.context,
    maxLineChars: spec.maxLineChars,
    deadline: spec.deadline,
  });
  if ('skipped' in outcome) {
    throw outcome.skipped === 'binary'
      ? new ToolError('BINARY_FILE', `'${shown}' looks binary (it has NUL bytes), so it cannot be searched as text`, {
          hint: PASSAGES.searchBinary,
        })
      : new ToolError('DECODE_ERROR', `'${shown}' is not valid UTF-8 or UTF-16, so it cannot be searched as text`, {
          hint: PASSAGES.searchDecode,
        });
  }
  noteLongLine(spec, rel, outcome);
  const found = outcome.matches;
  const stopped = outcome.stoppedAfter === undefined ? undefined : { path: rel, line: outcome.stoppedAfter, column: 0 };
  return finishPage(found, spec.maxMatches, stopped);
}

/** A line only partly searched makes the answer incomplete: it is listed with the skipped paths. */
function noteLongLine(spec: SearchSpec, rel: string, outcome: ScanOutcome): void {
  if ('skipped' in outcome || outcome.longLine === undefined) return;
  if (spec.unreadable && spec.unreadable.length < 1000)
    spec.unreadable.push({
      path: rel,
      reason: `line ${outcome.longLine} (and any later one) is longer than ${MAX_LINE_SEARCH} characters: only the first ${MAX_LINE_SEARCH} of such a line were searched (a literal, case-sensitive search looks at whole lines)`,
    });
}
