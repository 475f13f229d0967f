import type { PlainFile, WorkspaceFs } from '../fs/types.js';
import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { readFileCounted, type CountedFile } from '../fs/helpers.js';
import { hardLinkRefusal, hardLinkSkipReason, isRefusedHardLink } from '../workspace/hard-links.js';
import { displayPath, type PathResolver, type WorkspacePath } from '../workspace/paths.js';
import type { CursorPosition } from './cursor.js';
import type { PathTest } from './glob.js';
import type { Matcher } from './matcher.js';
import { MAX_LINE_SEARCH, scanFile, type LineMatch, type ScanOutcome } from './scan.js';
import { noteUnreadable, walkRuns, type Unreadable, type WalkBudget, type WalkEntry } from './walk.js';

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
}

const DEFAULT_CONCURRENCY = 24;
/**
 * Files of one folder read in one backend call: on the node backend each call is a round trip to
 * the read helper thread, and each of those wakes two threads.
 */
const BATCH = 32;
/**
 * Files a batching backend is asked for at once, at least: the window is refilled only once this
 * many have been taken, so several folders' reads go out in one turn (on the node backend, one
 * message to a read thread instead of one a folder, and each message wakes two threads).
 */
const REFILL = 64;

/** One read of the window: a folder's files read in one backend call, or a file read alone. */
interface Slot {
  entries: WalkEntry[];
  /** each file's outcome, in order (null: not searched), once every file of the slot is scanned */
  result: Promise<Array<ScanOutcome | null>>;
  settled: boolean;
}

/**
 * Search files in walk order. Reads run ahead with bounded concurrency while results are taken
 * strictly in order, and nothing new is read once one match more than the page holds is known.
 * A folder's files travel together, read in one backend call and scanned in one step as their
 * bytes arrive, so the bookkeeping is paid per batch rather than per file.
 */
export async function searchFiles(fs: WorkspaceFs, paths: PathResolver, spec: SearchSpec): Promise<SearchPage> {
  if (spec.start.stat?.type === 'file') return searchOneFile(fs, spec);
  const concurrency = spec.concurrency ?? DEFAULT_CONCURRENCY;
  const budget: WalkBudget | undefined = spec.deadline === undefined ? undefined : { deadline: spec.deadline };
  const runs = walkRuns(
    fs,
    paths,
    spec.start,
    {
      gitignore: true,
      links: 'follow',
      resumeAt: spec.resume?.path,
      budget,
      unreadable: spec.unreadable,
      noteSpecial: true,
    },
    BATCH,
  );
  const found: FileLineMatch[] = [];
  /** files whose outcome was taken onto the page */
  let taken = 0;
  /** set once the page is decided: reads still out then are not scanned */
  const page = { ended: false };
  const window: Slot[] = [];
  /** files in the window's slots */
  let inFlight = 0;
  let walking = true;
  let scanned = 0;
  /** the walk's latest run, taken from `at` on */
  let run: WalkEntry[] = [];
  let at = 0;
  /** The next file of the current run that the include globs let through, or null when the run is used up. */
  const nextInRun = (): WalkEntry | null => {
    while (at < run.length) {
      const entry = run[at++]!;
      if (!spec.include || spec.include(entry.rel)) return entry;
    }
    return null;
  };
  const next = async (): Promise<WalkEntry | null> => {
    for (;;) {
      const entry = nextInRun();
      if (entry !== null || !walking) return entry;
      const step = await runs.next();
      if (step.done) {
        walking = false;
        return null;
      }
      run = step.value;
      at = 0;
    }
  };
  const enqueue = (entries: WalkEntry[], read: Promise<Array<PlainFile | null> | null> | null) => {
    const slot: Slot = {
      entries,
      result: scanSlot(fs, entries, read, spec, found.length, page).then((outcomes) => {
        slot.settled = true;
        return outcomes;
      }),
      settled: false,
    };
    window.push(slot);
    inFlight += entries.length;
  };
  // Files of one folder are read together where the backend can (one folder lookup, in parallel
  // with the scanning on some backends); a link's target and anything unusual is read alone.
  const batching = fs.readPlainFiles !== undefined;
  // Once the first batch is taken (a small page often ends there), a few batches are in flight,
  // so the backend reads the next ones while this thread scans.
  const wide = batching ? Math.max(concurrency * 2, BATCH * 5) : Math.max(1, concurrency);
  let limit = batching ? Math.max(concurrency * 2, BATCH + 1) : wide;
  // a batch starts only when a whole one fits: refilled one file at a time, batches would shrink to one file
  const room = () => (batching ? limit - BATCH + 1 : limit);
  /**
   * Near the page's end, no more read ahead than the matches still wanted are likely to need (at
   * the rate seen so far, twice over): a cursor's pages each read and scanned three batches past
   * their end. Only what is read changes, never what is taken.
   */
  const needed = () => {
    if (found.length === 0) return Infinity;
    return Math.ceil(((spec.maxMatches + 1 - found.length) * taken) / found.length) * 2;
  };
  const fill = async () => {
    if (batching && inFlight > Math.max(0, limit - REFILL)) return;
    while (inFlight < room() && inFlight < needed()) {
      const entry = nextInRun() ?? (await next());
      if (!entry) break;
      const folder = batching ? plainFolder(entry) : null;
      if (folder === null) {
        enqueue([entry], null);
        continue;
      }
      const batch = [entry];
      while (batch.length < BATCH && inFlight + batch.length < limit) {
        const more = nextInRun() ?? (await next());
        if (!more) break;
        if (plainFolder(more) !== folder) {
          at--; // taken again by the next batch
          break;
        }
        batch.push(more);
      }
      const names = batch.map((e) => e.name);
      enqueue(
        batch,
        fs.readPlainFiles!(folder, names, Number.MAX_SAFE_INTEGER).catch(() => null),
      );
    }
  };
  let resumeAfter: CursorPosition | undefined;
  /** Take one file's outcome in order; true when the page must end here (a file stopped inside). */
  const take = (rel: string, outcome: ScanOutcome | null): boolean => {
    taken++;
    if (outcome && !('skipped' in outcome)) {
      for (const m of outcome.matches) found.push(m);
      if (outcome.stoppedAfter !== undefined) {
        resumeAfter = { path: rel, line: outcome.stoppedAfter, column: 0 };
        return true;
      }
    }
    return false;
  };
  /**
   * The budget ended the page after file `at` of `slot`: files already read and scanned (the
   * rest of its batch, settled slots after it) still count on this page; files read ahead and
   * not yet done are read again by the next, which starts after the last file taken here.
   */
  const takeSettled = async (slot: Slot, outcomes: Array<ScanOutcome | null>, at: number) => {
    let last = slot.entries[at]!.rel;
    for (let s: Slot | undefined = slot, i = at + 1; s; ) {
      for (; i < s.entries.length && found.length <= spec.maxMatches; i++) {
        last = s.entries[i]!.rel;
        if (take(last, outcomes[i]!)) return;
      }
      if (found.length > spec.maxMatches || !window[0]?.settled) break;
      s = window.shift()!;
      outcomes = await s.result;
      i = 0;
    }
    resumeAfter = { path: last, line: Number.MAX_SAFE_INTEGER, column: 0 };
  };
  try {
    pages: while (found.length <= spec.maxMatches) {
      await fill();
      const head = window.shift();
      if (!head) break;
      inFlight -= head.entries.length;
      limit = wide;
      const outcomes = await head.result;
      for (let i = 0; i < outcomes.length; i++) {
        if (spec.onFiles && ++scanned % PROGRESS_EVERY === 0) await spec.onFiles(scanned);
        if (take(head.entries[i]!.rel, outcomes[i]!) || found.length > spec.maxMatches) break pages;
        if (
          spec.deadline !== undefined &&
          Date.now() > spec.deadline &&
          (i + 1 < outcomes.length || window.length > 0 || walking)
        ) {
          await takeSettled(head, outcomes, i);
          break pages;
        }
      }
    }
  } finally {
    page.ended = true;
    walking = false;
    run = [];
    await runs.return(undefined);
  }
  if (!resumeAfter && budget?.stoppedAt !== undefined) resumeAfter = { path: budget.stoppedAt, line: 0, column: 0 };
  return finishPage(found, spec.maxMatches, resumeAfter);
}

/** Cut to the page size; a page the budget ended is truncated unless the cut already says so. */
function finishPage(found: FileLineMatch[], maxMatches: number, resumeAfter: CursorPosition | undefined): SearchPage {
  if (found.length > maxMatches) return { matches: found.slice(0, maxMatches), truncated: true };
  return resumeAfter ? { matches: found, truncated: true, resumeAfter } : { matches: found, truncated: false };
}

/** The folder a walk entry is read from by name, or null when it is read by another path (a followed link). */
function plainFolder(entry: WalkEntry): string | null {
  const cut = entry.abs.length - entry.name.length - 1;
  if (cut < 0 || entry.abs.charCodeAt(cut) !== 47 || !entry.abs.endsWith(entry.name)) return null;
  return cut === 0 ? '/' : entry.abs.slice(0, cut);
}

function countedOf(file: PlainFile | null): CountedFile | null {
  if (!file?.bytes) return null;
  return file.stat.nlink === undefined ? { bytes: file.bytes } : { bytes: file.bytes, nlink: file.stat.nlink };
}

/**
 * Scan the files of one slot in order as their batch read arrives; a file the batch could not
 * read (null) is read alone, which says why. `taken` matches were on the page when it started:
 * each file is asked for no more than the page can still hold after the files before it.
 */
async function scanSlot(
  fs: WorkspaceFs,
  entries: WalkEntry[],
  read: Promise<Array<PlainFile | null> | null> | null,
  spec: SearchSpec,
  taken: number,
  page: { ended: boolean },
): Promise<Array<ScanOutcome | null>> {
  const files = read === null ? null : await read;
  const outcomes: Array<ScanOutcome | null> = [];
  let left = spec.maxMatches + 1 - taken;
  for (let i = 0; i < entries.length; i++) {
    // read ahead past the page's end: nobody takes it
    if (page.ended) {
      outcomes.push(null);
      continue;
    }
    const entry = entries[i]!;
    const afterLine = spec.resume && entry.rel === spec.resume.path ? spec.resume.line : 0;
    // Past a full page a file is still scanned (for one match), so what it says about itself is as before.
    const limit = Math.max(1, left);
    let outcome: ScanOutcome | null;
    try {
      const counted = countedOf(files?.[i] ?? null) ?? (await readFileCounted(fs, entry.abs));
      const scanning = scanCounted(entry.rel, counted, spec, afterLine, limit);
      outcome = scanning instanceof Promise ? await scanning : scanning;
    } catch (error) {
      // A file that vanished is skipped; one that cannot be read is skipped and reported.
      noteUnreadable(spec.unreadable, entry.rel, error);
      outcome = null;
    }
    if (outcome && !('skipped' in outcome)) left -= outcome.matches.length;
    outcomes.push(outcome);
  }
  return outcomes;
}

/** Scan one file's bytes: synchronous unless the scan must decode and pace itself. */
function scanCounted(
  rel: string,
  { bytes, nlink }: CountedFile,
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
  const outcome = scanFile(bytes, spec.matcher, {
    path: rel,
    afterLine,
    limit,
    context: spec.context,
    maxLineChars: spec.maxLineChars,
    deadline: spec.deadline,
  });
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
          hint: 'Use file_bytes to look for bytes in it.',
        })
      : new ToolError('DECODE_ERROR', `'${shown}' is not valid UTF-8 or UTF-16, so it cannot be searched as text`, {
          hint: 'Read it with read_file and an explicit encoding.',
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
