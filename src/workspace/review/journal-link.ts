import type { WorkspaceFs } from '../../fs/types.js';
import type { ChangeEvent, ChangeLog } from '../change-log.js';
import type { HunkStatus } from './hunks.js';
import { ChangeJournal, type JournalLock, type Verdict } from './journal.js';
import type { JournalChange } from './journal-codec.js';
import type { QueuedNote } from '../note-queue.js';
import type { ReviewNotes } from './notes.js';

/** What a workspace's review desk and blame share with the persisted change log. */
export interface JournalLinkDeps {
  fs: WorkspaceFs;
  /** the journal's folder, a backend path */
  dir: string;
  /** a file's text now: null when gone, undefined when not text */
  read: (rel: string) => Promise<string | null | undefined>;
  changes: ChangeLog;
  verdicts: Map<string, { status: HunkStatus; reason?: string }>;
  notes: ReviewNotes;
  /** hand changes read back to blame, in order (`older`: they came before every change this process made) */
  replay: (events: ChangeEvent[], older: boolean) => void;
  /** how many times this process has taken the lock shared with other processes */
  takes?: () => number | undefined;
  /** the lock shared with other processes (verdicts and notes are written holding it) */
  lock?: JournalLock | null;
  /** changes recorded before the journal was open, to keep now */
  unsaved: ChangeEvent[];
}

/** The change log's persisted side, as the workspace uses it (see ChangeJournal). */
export interface JournalLink {
  /** keep a change just recorded */
  append(event: ChangeEvent): void;
  /** read what other processes persisted since: their changes, and the verdicts and notes when asked */
  catchUp(what?: { verdicts?: boolean; notes?: boolean }): Promise<void>;
  /** before a change, under the process lock: read what others wrote when the lock changed hands */
  beforeChange(): Promise<void>;
  /** resolves once everything kept so far is written */
  flush(): Promise<void>;
  /** keep verdicts just given (laid over what other processes kept meanwhile) */
  saveVerdicts(decided: ReadonlyArray<readonly [string, Verdict]>): void;
}

/**
 * Keep the notes not yet taken with the journal: every push and take of `queue` from now on is
 * saved (a note added, or the taken ones removed), so the next agent run in another process reads
 * what this one did not. `restore` queues notes read back without saving them again.
 */
function keepNotes(queue: ReviewNotes, save: (note: QueuedNote, taken: boolean) => void) {
  let waiting: QueuedNote[] = [];
  const push = queue.push.bind(queue);
  const take = queue.take.bind(queue);
  queue.push = (note) => {
    waiting.push(note);
    push(note);
    save(note, false);
  };
  queue.take = () => {
    const taken = take();
    waiting = [];
    for (const note of taken) save(note, true);
    return taken;
  };
  return {
    pending: (): readonly QueuedNote[] => waiting,
    restore: (notes: readonly QueuedNote[]) => {
      for (const note of notes) waiting.push(note), push(note);
    },
  };
}

const asEvent = (c: JournalChange): ChangeEvent => ({
  change_id: c.id,
  tool: c.tool,
  paths: c.files.flatMap((f) => (f.from !== undefined && f.from !== f.path ? [f.from, f.path] : [f.path])),
  // blame replays a program's write with the text the file was seen to hold then
  files: c.files.map((f, i) => (f.after === undefined ? { ...f, after: c.seen[i] } : f)),
  ...(c.actor !== undefined ? { actor: c.actor } : {}),
  ...(c.call_id !== undefined ? { call_id: c.call_id } : {}),
});

/**
 * Read the persisted change log into the workspace (its changes into the change log and blame,
 * verdicts, notes not yet taken) and keep it up to date from then on. Loaded with the first change
 * or review verb, so a workspace that is never reviewed does not carry it on its first load.
 */
export async function openJournalLink(deps: JournalLinkDeps): Promise<JournalLink> {
  const journal = new ChangeJournal(deps.fs, deps.dir, deps.read, undefined, deps.lock ?? null);
  let lastTakes = deps.takes?.();
  const adopt = (list: JournalChange[], older: boolean) => {
    if (list.length === 0) return;
    deps.changes.restore(list);
    deps.replay(list.map(asEvent), older);
  };
  adopt(await journal.readNew(), true);
  for (const [id, v] of await journal.verdicts()) if (!deps.verdicts.has(id)) deps.verdicts.set(id, v);
  const notes = keepNotes(deps.notes, (note, taken) => journal.saveNote(note, taken));
  notes.restore(await journal.notes());

  const catchUp = async (what: { verdicts?: boolean; notes?: boolean } = {}) => {
    try {
      adopt(await journal.readNew(), false);
      if (what.verdicts) for (const [id, v] of await journal.verdicts()) deps.verdicts.set(id, v);
      if (what.notes) {
        const have = new Set(notes.pending().map((n) => n.text));
        notes.restore((await journal.notes()).filter((n) => !have.has(n.text)));
      }
    } catch {
      // the log could not be read now: this process's view stands
    }
  };
  const append = (event: ChangeEvent) => {
    const summary = deps.changes.summary(event.change_id);
    if (summary) journal.append(event, summary);
  };
  for (const event of deps.unsaved.splice(0)) append(event);
  return {
    append,
    catchUp,
    beforeChange: async () => {
      const takes = deps.takes?.();
      if (takes === undefined || takes === lastTakes) return;
      lastTakes = takes;
      await catchUp();
    },
    flush: () => journal.flush(),
    saveVerdicts: (decided) => journal.saveVerdicts(decided),
  };
}
