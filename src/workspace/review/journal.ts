import { mkdirp, readdirOrNull, readFileOrNull, removeIfPresent } from '../../fs/helpers.js';
import type { WorkspaceFs } from '../../fs/types.js';
import { changeNumber, type ChangeEvent, type ChangeSummary } from '../change-log.js';
import type { QueuedNote } from '../note-queue.js';
import type { HunkStatus } from './hunks.js';
import { KnownTexts, type JournalChange } from './journal-codec.js';
import { recordBytes, recordOf } from './journal-format.js';

/** How much of the change log the journal keeps: the newest changes within both bounds. */
export interface JournalLimits {
  /** changes kept */
  maxEntries: number;
  /** bytes of records kept */
  maxBytes: number;
}

/** The default bounds: past either, the oldest changes go until a quarter of the room is free. */
export const JOURNAL_LIMITS: JournalLimits = { maxEntries: 400, maxBytes: 16 * 1024 * 1024 };

/** A reviewer's verdict on a hunk, as the journal keeps it. */
export interface Verdict {
  status: Exclude<HunkStatus, 'pending'>;
  reason?: string;
}

/** The lock a root's processes share (the workspace's ProcessLock). */
export interface JournalLock {
  acquire(): Promise<() => Promise<void>>;
}

const VERDICTS = 'verdicts.json';
const NOTES = 'notes.json';

/** Verdicts kept (the newest); older ones are of changes the journal has long dropped. */
const MAX_VERDICTS = 4000;
/** Review notes kept for the next agent run. */
const MAX_NOTES = 100;

const utf8 = new TextEncoder();
const fromUtf8 = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const nameOf = (n: number) => `${String(n).padStart(10, '0')}.json`;
const numberOf = (name: string) => (/^\d{10,15}\.json$/.test(name) ? Number(name.slice(0, -5)) : null);

/**
 * The workspace's change log on its own backend, so a review or a blame in another process (the
 * CLI after an MCP server or an agent run) sees the changes, their actors and hunks: one record
 * per change under `.sandpit/review/changes/` (a line of JSON and the texts it names, see
 * journal-format.ts), named by the change's number, each written whole (a torn or foreign file is
 * skipped when read). A file's text is stored once, later changes as the lines they changed; past the limits the oldest changes go, the oldest kept ones rewritten
 * first to stand alone. The reviewers' verdicts and the notes the next agent run must read sit
 * beside them. Writes queue in order; `flush` waits for them. A failed write never fails a call.
 */
export class ChangeJournal {
  private known = new KnownTexts();
  private index: Array<{ n: number; bytes: number }> = [];
  private total = 0;
  private last = 0;
  private queue: Promise<void> = Promise.resolve();
  private made = false;
  private readonly unsavedVerdicts: Array<readonly [string, Verdict]> = [];
  private readonly unsavedNotes: Array<{ note: QueuedNote; taken: boolean }> = [];
  /** writes that failed (the backend full or gone); the journal goes on with the next */
  failures = 0;

  /**
   * @param dir - the journal's folder, a backend path (`.sandpit/review` below the root)
   * @param read - a file's text now (for a change the log kept no text of), null when gone
   * @param lock - the lock the root's processes share (none: this process is alone on the backend)
   */
  constructor(
    private readonly fs: WorkspaceFs,
    private readonly dir: string,
    private readonly read: (rel: string) => Promise<string | null | undefined>,
    private readonly limits: JournalLimits = JOURNAL_LIMITS,
    private readonly lock: JournalLock | null = null,
  ) {}

  private get changesDir(): string {
    return `${this.dir}/changes`;
  }

  /** The changes written since the last read (by any process; all of them the first time), oldest first. */
  readNew(): Promise<JournalChange[]> {
    // in the queue: reading decodes against the same known texts the writes encode against
    return new Promise((resolve, reject) => this.enqueue(() => this.readNow().then(resolve, reject)));
  }

  private async readNow(): Promise<JournalChange[]> {
    const names = (await readdirOrNull(this.fs, this.changesDir)) ?? [];
    const numbers = names
      .map(numberOf)
      .filter((n): n is number => n !== null && n > this.last)
      .sort((a, b) => a - b);
    const out: JournalChange[] = [];
    for (const n of numbers) {
      const bytes = await readFileOrNull(this.fs, `${this.changesDir}/${nameOf(n)}`);
      this.last = n;
      if (!bytes) continue;
      this.index.push({ n, bytes: bytes.length });
      this.total += bytes.length;
      const change = this.known.decode(recordOf(bytes));
      if (change && changeNumber(change.id) === n) out.push(change);
    }
    return out;
  }

  /** Keep a change that was just recorded (its text read now where the log kept none). */
  append(event: ChangeEvent, summary: ChangeSummary): void {
    const n = changeNumber(event.change_id);
    if (n === null) return;
    this.enqueue(async () => {
      const seen = await Promise.all(
        event.files.map((f) => (f.after !== undefined ? f.after : this.read(f.path).catch(() => undefined))),
      );
      const change: JournalChange = {
        id: event.change_id,
        tool: event.tool,
        created_at: summary.created_at,
        ...(event.actor !== undefined ? { actor: event.actor } : {}),
        ...(event.call_id !== undefined ? { call_id: event.call_id } : {}),
        files: [...event.files],
        seen,
      };
      const bytes = recordBytes(this.known.encode(change));
      if (!this.made) await mkdirp(this.fs, this.changesDir);
      this.made = true;
      await this.fs.writeFile(`${this.changesDir}/${nameOf(n)}`, bytes);
      this.index.push({ n, bytes: bytes.length });
      this.total += bytes.length;
      this.last = Math.max(this.last, n);
      if (this.index.length > this.limits.maxEntries || this.total > this.limits.maxBytes) await this.compact();
    });
  }

  /** Resolves once every queued write is done (or failed). */
  flush(): Promise<void> {
    return this.queue;
  }

  /** The verdicts kept, by hunk id (with this process's own not yet written laid over them). */
  async verdicts(): Promise<Map<string, Verdict>> {
    await this.queue;
    const kept = verdictsOf(parse((await readFileOrNull(this.fs, `${this.dir}/${VERDICTS}`)) ?? new Uint8Array()));
    for (const [id, verdict] of this.unsavedVerdicts) kept.delete(id), kept.set(id, verdict);
    return kept;
  }

  /**
   * Keep these verdicts, just given, over the ones kept (the newest few thousand). Under the lock
   * shared with other processes the kept file is read again and only these are laid over it, so
   * two processes giving verdicts at once both keep theirs. Verdicts whose write failed (the lock
   * not taken in time, the backend full) are tried again with the next.
   */
  saveVerdicts(decided: ReadonlyArray<readonly [string, Verdict]>): void {
    this.unsavedVerdicts.push(...decided);
    this.enqueue(async () => {
      const batch = this.unsavedVerdicts.splice(0);
      if (batch.length === 0) return;
      try {
        await this.update(VERDICTS, (value) => {
          const kept = verdictsOf(value);
          for (const [id, verdict] of batch) kept.delete(id), kept.set(id, verdict);
          return [...kept].slice(-MAX_VERDICTS);
        });
      } catch (error) {
        this.unsavedVerdicts.unshift(...batch);
        throw error;
      }
    });
  }

  /** The notes kept for the next agent run. */
  async notes(): Promise<QueuedNote[]> {
    await this.queue;
    return notesOf(parse((await readFileOrNull(this.fs, `${this.dir}/${NOTES}`)) ?? new Uint8Array()));
  }

  /**
   * Keep a note for the next run (`taken` false), or let go of one a run took (true): the kept
   * notes are read again under the shared lock and only this one added or removed, so notes of
   * other processes are neither lost nor brought back. Failed writes are tried again.
   */
  saveNote(note: QueuedNote, taken: boolean): void {
    this.unsavedNotes.push({ note, taken });
    this.enqueue(async () => {
      const batch = this.unsavedNotes.splice(0);
      if (batch.length === 0) return;
      try {
        await this.update(NOTES, (value) => {
          const kept = notesOf(value);
          for (const { note: one, taken: out } of batch) {
            if (!out) kept.push(one);
            else {
              const at = kept.findIndex((n) => n.text === one.text);
              if (at !== -1) kept.splice(at, 1);
            }
          }
          return kept.slice(-MAX_NOTES);
        });
      } catch (error) {
        this.unsavedNotes.unshift(...batch);
        throw error;
      }
    });
  }

  /** Read `name` again and write what `change` makes of it, holding the lock other processes share. */
  private async update(name: string, change: (value: unknown) => unknown): Promise<void> {
    const release = this.lock ? await this.lock.acquire() : null;
    try {
      const path = `${this.dir}/${name}`;
      const value = change(parse((await readFileOrNull(this.fs, path)) ?? new Uint8Array()));
      await mkdirp(this.fs, this.dir);
      await this.fs.writeFile(path, utf8.encode(JSON.stringify(value)));
    } finally {
      await release?.();
    }
  }

  private enqueue(work: () => Promise<void>): void {
    this.queue = this.queue.then(work).catch(() => {
      this.failures++;
    });
  }

  /**
   * Drop the oldest changes until a quarter of the room is free: every kept change is read back
   * and written again against what the kept ones alone know (so the oldest stand alone), and only
   * then are the dropped ones removed, so a crash in between leaves a journal that still reads.
   */
  private async compact(): Promise<void> {
    const entries = Math.floor(this.limits.maxEntries * 0.75);
    const room = Math.floor(this.limits.maxBytes * 0.75);
    let drop = 0;
    let total = this.total;
    while (drop < this.index.length - 1 && (this.index.length - drop > entries || total > room))
      total -= this.index[drop++]!.bytes;
    const reading = new KnownTexts();
    const kept = new KnownTexts();
    const index: Array<{ n: number; bytes: number }> = [];
    for (const [i, { n }] of this.index.entries()) {
      const path = `${this.changesDir}/${nameOf(n)}`;
      const bytes = await readFileOrNull(this.fs, path);
      const change = bytes && reading.decode(recordOf(bytes));
      if (i < drop) continue;
      if (!bytes || !change) {
        await removeIfPresent(this.fs, path).catch(() => false);
        continue;
      }
      const again = recordBytes(kept.encode(change));
      if (!sameBytes(again, bytes)) await this.fs.writeFile(path, again);
      index.push({ n, bytes: again.length });
    }
    for (const { n } of this.index.slice(0, drop))
      await removeIfPresent(this.fs, `${this.changesDir}/${nameOf(n)}`).catch(() => false);
    this.known = kept;
    this.index = index;
    this.total = index.reduce((sum, e) => sum + e.bytes, 0);
  }
}

function parse(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return null;
  try {
    return JSON.parse(fromUtf8(bytes));
  } catch {
    return null;
  }
}

function verdictsOf(value: unknown): Map<string, Verdict> {
  const out = new Map<string, Verdict>();
  if (!Array.isArray(value)) return out;
  for (const item of value) {
    if (!Array.isArray(item) || typeof item[0] !== 'string') continue;
    const v = item[1] as Partial<Verdict> | null;
    if (v && (v.status === 'accepted' || v.status === 'rejected'))
      out.set(item[0], { status: v.status, ...(typeof v.reason === 'string' ? { reason: v.reason } : {}) });
  }
  return out;
}

function notesOf(value: unknown): QueuedNote[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter((n): n is QueuedNote => typeof n?.text === 'string' && typeof n?.wake === 'boolean')
    .map((n) => ({ text: n.text, wake: n.wake }));
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
