import { FsError } from '../errors.js';
import { KeptBytes } from '../kept-bytes.js';
import type { PackFile } from './pack-log.js';

/** The log grows in steps of at least this once it holds a megabyte, so quota is asked for once per many small writes. */
export const GROW_STEP = 1 << 20;

/**
 * A log's first step: it then doubles up to GROW_STEP. Most workspaces hold far less than a
 * megabyte, and growing an OPFS file costs the browser by the size granted: in a private window
 * a 1 MiB `truncate` cost about 7 ms of the browser's CPU, a 64 KiB one about 2.5.
 */
const FIRST_STEP = 64 * 1024;

/**
 * A record up to this size is copied into the batch; bigger file bytes are written at once, apart
 * from their header, rather than copied.
 */
const JOIN_LIMIT = 256 * 1024;

/** A batch this big is written at once, so a run of appends (a compaction's copy) holds little in memory. */
const BATCH_LIMIT = 1 << 20;

/**
 * One turn of the event loop: setImmediate in Node (the tests' in-memory logs), else a message to
 * itself, which a worker does not clamp to 4 ms as it does nested timers.
 */
function turnTaker(): (run: () => void) => void {
  if (typeof setImmediate === 'function') return (run) => setImmediate(run);
  const channel = new MessageChannel();
  const waiting: Array<() => void> = [];
  channel.port1.onmessage = () => waiting.shift()?.();
  return (run) => {
    waiting.push(run);
    channel.port2.postMessage(null);
  };
}

interface Batch {
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The appending end of a log. It grows the file ahead of the bytes, so a full quota fails before
 * anything is written. Records appended in one turn of the event loop are written with one call
 * at its end, and each operation's promise (`written`) resolves only once its record is in the
 * file: a sync-handle call costs about 30 µs however small, which was most of a 2,000-file
 * checkout's time when each file was its own call. Order is kept: a later record is never in the
 * file without the earlier ones.
 */
export class LogWriter {
  private allocated: number;
  private batch: Batch | null = null;
  /** the records not yet written, and where in the log they start */
  private staged = new Uint8Array(0);
  private used = 0;
  private stagedAt = 0;
  private turn: ((run: () => void) => void) | null = null;
  /**
   * Small records' file bytes by where they start. What the log holds at a place never changes
   * while this writer writes it, except after a lost batch, which clears them. In a private window
   * each read of a sync access handle is a round trip to the browser process (about 0.3 to 0.6 ms
   * of its CPU), and a workspace reads back what it just wrote all the time (../kept-bytes.ts).
   */
  private readonly kept = new KeptBytes<number>();

  /**
   * @param onLost called when a write failed part-way: the file now ends (as replay reads it)
   *   where the failed batch began, and the caller rebuilds what it holds from the file
   */
  constructor(
    readonly file: PackFile,
    public end: number,
    public onLost: (writer: LogWriter) => void = () => {},
    size = file.getSize(),
  ) {
    this.allocated = size;
  }

  /** The `size` bytes at `at`, from memory when kept; records still waiting there are written first. */
  read(at: number, size: number): Uint8Array {
    if (this.holds(at, at + size)) this.writeNow();
    const kept = this.kept.bytesOf(at);
    if (kept) return kept;
    const bytes = new Uint8Array(size);
    if (size > 0 && this.file.read(bytes, { at }) !== size) throw new FsError('EIO', 'readFile');
    this.kept.keep(at, bytes, this.kept.now());
    return bytes;
  }

  /** Append one record; returns where it starts. Throws ENOSPC having changed nothing that counts. */
  append(header: Uint8Array, data?: Uint8Array): number {
    const size = header.length + (data?.length ?? 0);
    const need = this.end + size;
    this.reserve(need);
    const at = this.end;
    // what was kept for this place (from a lost batch) goes; bytes too big to keep are not kept
    if (data) this.kept.keep(at + header.length, data, this.kept.now());
    if (data && data.length > JOIN_LIMIT) {
      // big file bytes: the records before it, then this one, each written now
      this.writeNow();
      const short =
        this.file.write(header, { at }) !== header.length ||
        this.file.write(data, { at: at + header.length }) !== data.length;
      // A short write past the quota: the record's CRC cannot hold, so replay ends before it.
      if (short) throw new FsError('ENOSPC', 'write');
      this.end = need;
      return at;
    }
    if (this.used === 0) this.stagedAt = at;
    if (this.used + size > this.staged.length) {
      const grown = new Uint8Array(Math.max(this.used + size, this.staged.length * 2, 64 * 1024));
      grown.set(this.staged.subarray(0, this.used));
      this.staged = grown;
    }
    this.staged.set(header, this.used);
    if (data) this.staged.set(data, this.used + header.length);
    this.used += size;
    this.end = need;
    if (this.used >= BATCH_LIMIT) this.writeNow();
    else this.schedule();
    return at;
  }

  /** Resolves once everything appended so far is in the file; rejects if its write failed. */
  written(): Promise<void> {
    if (this.used === 0) return Promise.resolve();
    return this.schedule().done;
  }

  /** Whether bytes at `at` and before `end` are still waiting to be written. */
  holds(at: number, end: number): boolean {
    return this.used > 0 && end > this.stagedAt && at < this.stagedAt + this.used;
  }

  /**
   * Write the waiting records now, with one call. On failure the batch is cut off (its first
   * record's length zeroed, so no replay takes any of it), `onLost` runs, every operation waiting
   * on the batch is refused, and the error is thrown.
   */
  writeNow(): void {
    if (this.used === 0) return;
    const batch = this.batch;
    this.batch = null;
    const at = this.stagedAt;
    const bytes = this.staged.subarray(0, this.used);
    this.used = 0;
    let failure: unknown = null;
    try {
      if (this.file.write(bytes, { at }) !== bytes.length) failure = new FsError('ENOSPC', 'write');
    } catch (error) {
      failure = error;
    }
    if (this.staged.length > BATCH_LIMIT * 2) this.staged = new Uint8Array(0);
    if (failure === null) {
      batch?.resolve();
      return;
    }
    try {
      this.file.write(new Uint8Array(8), { at });
    } catch {
      // the file refuses even that: replay in onLost reads what landed, which is whole records only
    }
    this.end = at;
    // the batch's places will hold other records
    this.kept.clear();
    this.onLost(this);
    batch?.reject(failure);
    throw failure;
  }

  /**
   * Grow the file to hold `need` bytes. Chromium grants quota when a sync handle grows a file, and
   * a `truncate` past the quota does nothing (or throws), so the size is checked after each try.
   */
  reserve(need: number): void {
    if (need <= this.allocated) return;
    const step = Math.max(Math.min(Math.max(this.allocated, FIRST_STEP), GROW_STEP), this.allocated >> 3);
    const generous = Math.max(need, this.allocated + step);
    for (const size of [generous, need]) {
      try {
        this.file.truncate(size);
      } catch {
        continue;
      }
      this.allocated = this.file.getSize();
      if (this.allocated >= need) return;
    }
    throw new FsError('ENOSPC', 'write');
  }

  private schedule(): Batch {
    if (this.batch) return this.batch;
    let resolve!: () => void;
    let reject!: (error: unknown) => void;
    const done = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // a batch nobody waits on (a compaction's) must not report its failure as unhandled
    done.catch(() => {});
    const batch: Batch = { done, resolve, reject };
    this.batch = batch;
    this.turn ??= turnTaker();
    this.turn(() => {
      if (this.batch !== batch) return;
      try {
        this.writeNow();
      } catch {
        // refused to the operations waiting on the batch
      }
    });
    return batch;
  }
}
