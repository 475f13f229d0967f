import { readFileCounted, type CountedFile } from '../fs/helpers.js';
import type { LiteralBytes } from '../fs/literal-lines.js';
import type { PlainFile, WorkspaceFs } from '../fs/types.js';
import type { PathResolver } from '../workspace/paths.js';
import { yieldToHost } from '../workspace/host-yield.js';
import type { PathTest } from './glob.js';
import type { Unreadable, WalkEntry, WalkOptions } from './walk.js';

/**
 * Files of one folder read in one backend call: on the node backend each call is a round trip to
 * the read helper thread, and each of those wakes two threads.
 */
export const BATCH = 32;
/**
 * Files a batching backend is asked for at once, at least: the window is refilled only once this
 * many have been taken, so several folders' reads go out in one turn (on the node backend, one
 * message to a read thread instead of one a folder, and each message wakes two threads).
 */
const REFILL = 64;
/** Files the page's own thread reads past the window's size while it waits (see readWhileWaiting). */
const WAIT_READS_MOST = 64;

/** A slot's read: a folder batch's files (null as a whole when the batch failed), or a file read alone. */
export type SlotRead = { batch: Array<PlainFile | null> | null } | { file: CountedFile } | { error: unknown };

/** One read of the window: a folder's files read in one backend call, or a file read alone. */
export interface Slot {
  entries: WalkEntry[];
  read: Promise<SlotRead>;
  /** set when `read` has settled */
  done?: boolean;
  /** read on the page's own thread: it keeps no helper busy */
  here?: boolean;
}

/**
 * A query's walk and its reads in flight, which one page hands to the next: a page of a cursor
 * then neither walks to the cursor again nor reads again what the page before read past its end.
 * Each file is scanned when its page takes it, so what the reads are kept for is only bytes.
 */
export class SearchContinuation {
  readonly window: Slot[] = [];
  /** files in the window's slots */
  inFlight = 0;
  /** of those, files read on the page's own thread */
  readHere = 0;
  walking = true;
  /** the walk's latest run, taken from `at` on */
  run: WalkEntry[] = [];
  at = 0;
  /** the slot the last page ended in, and the file of it the next page starts with */
  head: Slot | null = null;
  headAt = 0;
  /** what the last page reported skipped at or after its last match: a page walking from that match reports them again */
  carried: Unreadable[] = [];
  readonly batching: boolean;
  readonly wide: number;
  limit: number;

  constructor(
    readonly fs: WorkspaceFs,
    /** the workspace's resolver: a page goes on only in the workspace it was made in */
    readonly paths: PathResolver,
    readonly runs: AsyncGenerator<WalkEntry[]>,
    /** the walk's options: each page puts its own budget and skipped list in */
    readonly walkOptions: WalkOptions,
    readonly include: PathTest | null,
    concurrency: number,
    /** a byte search's literal: a backend that can finds its lines as it reads (PlainReadOptions.literal) */
    readonly literal: LiteralBytes | null = null,
  ) {
    // Files of one folder are read together where the backend can (one folder lookup, in parallel
    // with the scanning on some backends); a link's target and anything unusual is read alone.
    this.batching = fs.readPlainFiles !== undefined;
    // Once the first batch is taken (a small page often ends there), a few batches are in flight,
    // so the backend reads the next ones while this thread scans.
    this.wide = this.batching ? Math.max(concurrency * 2, BATCH * 5) : Math.max(1, concurrency);
    this.limit = this.batching ? Math.max(concurrency * 2, BATCH + 1) : this.wide;
  }

  /** Let the walk go (its reads still out finish unseen). */
  async close(): Promise<void> {
    this.walking = false;
    this.run = [];
    this.head = null;
    this.window.length = 0;
    await this.runs.return(undefined);
  }

  /** The next file of the current run that the include globs let through, or null when the run is used up. */
  private nextInRun(): WalkEntry | null {
    while (this.at < this.run.length) {
      const entry = this.run[this.at++]!;
      if (!this.include || this.include(entry.rel)) return entry;
    }
    return null;
  }

  private async next(): Promise<WalkEntry | null> {
    for (;;) {
      const entry = this.nextInRun();
      if (entry !== null || !this.walking) return entry;
      const step = await this.runs.next();
      if (step.done) {
        this.walking = false;
        return null;
      }
      this.run = step.value;
      this.at = 0;
    }
  }

  private enqueue(entries: WalkEntry[], read: Promise<SlotRead>): Slot {
    const slot: Slot = { entries, read };
    slot.read = read.then((r) => {
      slot.done = true;
      return r;
    });
    this.window.push(slot);
    this.inFlight += entries.length;
    return slot;
  }

  /**
   * Start reads on the helper threads up to the window's size, and no more than `needed` files
   * in all. What this thread reads itself while it waits (readWhileWaiting) does not count
   * against the helpers' share: counted, it left the read helper idle for a third of a search
   * while this thread read in its place.
   */
  async fill(needed: number): Promise<void> {
    const { batching } = this;
    if (batching && this.outThere() > Math.max(0, this.limit - REFILL)) return;
    // a batch starts only when a whole one fits: refilled one file at a time, batches would shrink to one file
    const room = batching ? this.limit - BATCH + 1 : this.limit;
    while (this.outThere() < room && this.inFlight < needed) if (!(await this.start(false, this.limit))) break;
  }

  /** Files of the window read on other threads. */
  private outThere(): number {
    return this.inFlight - this.readHere;
  }

  /**
   * While `slot`'s read is still out on another thread, read the next batches on this one instead
   * of waiting idle, each between two turns of the event loop (so the helper's answer is taken as
   * soon as it comes). On two cores a page's thread scans faster than one helper reads, and waited
   * for it about half its time: now both read. The batches are the walk's next ones, queued
   * behind the others, so the order of files and what a page takes do not change; no more than
   * `needed` files are out, and no more than WAIT_READS_MOST past the window's size.
   */
  async readWhileWaiting(slot: Slot, needed: number): Promise<void> {
    if (!this.batching) return;
    const most = this.limit + WAIT_READS_MOST;
    while (slot.done !== true && this.inFlight < needed && this.inFlight < most) {
      if (!(await this.start(true, most))) return;
      await yieldToHost();
    }
  }

  /**
   * Start the read of the next file, with the files after it in its folder (here, or on a helper
   * thread); false at the walk's end. A batch read here ends where the window would hold `most`
   * files, one sent to a helper where `most` would be out on the helpers.
   */
  private async start(here: boolean, most: number): Promise<boolean> {
    const entry = this.nextInRun() ?? (await this.next());
    if (!entry) return false;
    const folder = this.batching ? plainFolder(entry) : null;
    if (folder === null) {
      this.enqueue(
        [entry],
        readFileCounted(this.fs, entry.abs).then(
          (file) => ({ file }),
          (error: unknown) => ({ error }),
        ),
      );
      return true;
    }
    const batch = [entry];
    const counted = here ? this.inFlight : this.outThere();
    while (batch.length < BATCH && counted + batch.length < most) {
      const more = this.nextInRun() ?? (await this.next());
      if (!more) break;
      if (plainFolder(more) !== folder) {
        this.at--; // taken again by the next batch
        break;
      }
      batch.push(more);
    }
    const names = batch.map((e) => e.name);
    // the page's start: the folder its walk listed is read through what the listing found in place
    const since = this.walkOptions.resolvedSince;
    const { literal } = this;
    const options =
      since === undefined && literal === null
        ? undefined
        : {
            ...(since === undefined ? {} : { resolvedSince: since }),
            ...(literal === null ? {} : { literal }),
          };
    const slot = this.enqueue(
      batch,
      this.fs.readPlainFiles!(folder, names, Number.MAX_SAFE_INTEGER, here ? { ...options, here } : options).then(
        (files) => ({ batch: files }),
        () => ({ batch: null }),
      ),
    );
    if (here) {
      slot.here = true;
      this.readHere += batch.length;
    }
    return true;
  }

  /** The oldest slot of the window, taken out of it. */
  shift(): Slot | undefined {
    const head = this.window.shift();
    if (head) {
      this.inFlight -= head.entries.length;
      if (head.here) this.readHere -= head.entries.length;
    }
    this.limit = this.wide;
    return head;
  }
}

/** The folder a walk entry is read from by name, or null when it is read by another path (a followed link). */
function plainFolder(entry: WalkEntry): string | null {
  // the folder's one string, shared by its entries: a batch is told apart from the next by identity
  if (entry.dir !== undefined) return entry.dir;
  const cut = entry.abs.length - entry.name.length - 1;
  if (cut < 0 || entry.abs.charCodeAt(cut) !== 47 || !entry.abs.endsWith(entry.name)) return null;
  return cut === 0 ? '/' : entry.abs.slice(0, cut);
}
