import { ToolError, type Envelope } from './contract/index.js';
import { lstatOrNull } from './fs/helpers.js';
import { toToolError } from './fs/tool-error.js';
import type { WorkspaceFs } from './fs/types.js';
import type { ToolDefinition } from './tools/schema/define.js';
import type { BlameRange, BlameTracker } from './workspace/blame/tracker.js';
import { textOfBytes, type ChangeEvent, type ChangeLog } from './workspace/change-log.js';
import type { CallOptions } from './workspace/context.js';
import type { Hunk, HunkStatus } from './workspace/review/hunks.js';
import type { JournalLink } from './workspace/review/journal-link.js';
import { provideLineAuthors } from './workspace/blame/sources.js';
import { ReviewNotes } from './workspace/review/notes.js';
import type { HunkFilter, RejectResult, ReviewDesk, ReviewOptions } from './workspace-review.js';

export type { BlameRange, Hunk, HunkFilter, RejectResult, ReviewOptions };
export type { RejectedHunk } from './workspace-review.js';
export type { HunkStatus } from './workspace/review/hunks.js';
export type { ReviewNote } from './workspace/review/notes.js';
export { ReviewNotes };

/** What `ws.blame(path)` answers: who last wrote each range of the file's lines. */
export interface BlameResult {
  /** the file, root-relative */
  path: string;
  /** its line count now */
  total_lines: number;
  /** consecutive ranges covering every line, first line first */
  ranges: BlameRange[];
}

/** What `review.hunks` answers. */
export interface HunkList {
  /** the hunks, oldest change first */
  hunks: Hunk[];
}

/** What `review.accept` answers. */
export interface AcceptResult {
  /** the ids marked accepted */
  accepted: string[];
}

/**
 * Review by hunk: every kept change's hunks, accepted or rejected one by one. A rejection reverts
 * exactly its hunks as a new change and tells the agent through `inbox`. While an agent run holds
 * the desk (`hold`), verdicts queue and apply when the run calls `drain` between its tool calls.
 * Every verb answers an envelope (`review_hunks`, `review_accept`, `review_reject`).
 */
export interface WorkspaceReview {
  /** the hunks of the kept changes, oldest change first */
  hunks(filter?: HunkFilter): Promise<Envelope<HunkList>>;
  /** mark hunks accepted (their text stays) */
  accept(ids: string[]): Promise<Envelope<AcceptResult>>;
  /** revert hunks as a new change and tell the agent why (a hunk whose lines moved on is PATCH_CONFLICT, nothing changed) */
  reject(ids: string[], reason: string, options?: ReviewOptions): Promise<Envelope<RejectResult>>;
  /** the rejections as notes, in the shape of runAgent's inbox */
  readonly inbox: ReviewNotes;
  /** an agent run starts: verdicts queue until `drain` (the returned function ends the hold and drains) */
  hold(): () => Promise<void>;
  /** apply the queued verdicts now (between an agent's tool calls) */
  drain(): Promise<void>;
}

interface HookDeps {
  changes: ChangeLog;
  fs: WorkspaceFs;
  toAbs: (rel: string) => string;
  run: <A, R>(tool: ToolDefinition<A, R>, args: A, options?: CallOptions) => Promise<R>;
  /** keep the change log on the backend (in `.sandpit/review`) for later processes, or in memory only */
  persist: boolean;
  /** how many times this process has taken the lock shared with other processes (see ProcessLock.takes) */
  takes?: () => number | undefined;
  /** the lock shared with other processes: verdicts and notes are read again and written holding it */
  lock?: { acquire(): Promise<() => Promise<void>> } | null;
  /** the workspace's snapshot store, which a merge of it (as a fork) names to ask who wrote its lines */
  store?: object | null;
}

/** What the workspace's call path asks of the persisted change log. */
export interface JournalHooks {
  /** Before a change, under the process lock: the persisted log is read (and what other processes added since). */
  beforeChange(): Promise<void>;
  /** Resolves once the changes recorded so far are persisted. */
  flush(): Promise<void>;
}

async function envelope<R>(tool: string, work: () => Promise<R>): Promise<Envelope<R>> {
  try {
    return { ok: true, tool, result: await work() };
  } catch (error) {
    return { ok: false, tool, error: toToolError(error).toJSON() };
  }
}

/**
 * The review desk and blame of a workspace. Both load on first use, so a worker's first load
 * does not carry them; blame starts listening to the change log at once (its tracker loads with
 * the first change) so it knows every line's author whenever it is first asked.
 */
export function reviewHooks(deps: HookDeps): {
  review: WorkspaceReview;
  blame: (path: string, options?: CallOptions) => Promise<Envelope<BlameResult>>;
  journal: JournalHooks;
} {
  const journalDir = deps.persist ? deps.toAbs('.sandpit/review') : null;
  const notes = new ReviewNotes();
  const verdicts = new Map<string, { status: HunkStatus; reason?: string }>();
  let desk: Promise<ReviewDesk> | null = null;
  const openDesk = () =>
    (desk ??= import('./workspace-review.js').then(
      (m) =>
        new m.ReviewDesk({
          changes: deps.changes,
          notes,
          run: deps.run,
          verdicts,
          onVerdict: (decided) => link?.saveVerdicts(decided),
        }),
    ));
  let holds = 0;
  const queued: Array<() => Promise<void>> = [];
  const verdict = <R>(tool: string, work: (d: ReviewDesk) => R | Promise<R>): Promise<Envelope<R>> => {
    const go = () => envelope(tool, async () => work(await reviewDesk()));
    if (holds === 0) return go();
    return new Promise((resolve) => queued.push(() => go().then(resolve)));
  };
  const drain = async () => {
    await catchUp({ notes: true });
    while (queued.length) await queued.shift()!();
  };

  const read = async (rel: string) => {
    const stat = await lstatOrNull(deps.fs, deps.toAbs(rel));
    if (!stat) return null;
    return stat.type === 'file' ? textOfBytes(await deps.fs.readFile(deps.toAbs(rel))) : undefined;
  };
  let tracker: Promise<BlameTracker> | null = null;
  const early: ChangeEvent[] = [];
  let ready: BlameTracker | null = null;
  const openTracker = () =>
    (tracker ??= import('./workspace/blame/tracker.js').then((m) => {
      ready = new m.BlameTracker(read);
      for (const event of early.splice(0)) ready.feed(event);
      return ready;
    }));
  deps.changes.onChange((event) => {
    if (ready) return ready.feed(event);
    early.push(event);
    void openTracker().catch(() => {});
  });

  // The persisted change log: read on first need (before the first change, so ids go on after the
  // kept ones), then kept up to date with every change; what other processes add is read later.
  const unsaved: ChangeEvent[] = [];
  let link: JournalLink | null = null;
  deps.changes.onChange((event) => (link ? link.append(event) : journalDir && unsaved.push(event)));
  let opening: Promise<JournalLink | null> | null = null;
  const open = () =>
    (opening ??= journalDir
      ? import('./workspace/review/journal-link.js')
          .then((m) =>
            m.openJournalLink({
              ...deps,
              dir: journalDir,
              read,
              verdicts,
              notes,
              unsaved,
              replay: (events, older) => {
                if (ready) for (const event of events) ready.feed(event);
                else early[older ? 'unshift' : 'push'](...events), void openTracker().catch(() => {});
              },
            }),
          )
          // a backend that cannot hold the log: review and blame work on this process's changes alone
          .then(
            (opened) => (link = opened),
            () => null,
          )
      : Promise.resolve(null));
  /** Read what other processes persisted since (changes, and verdicts and notes when asked). */
  const catchUp = async (what?: { verdicts?: boolean; notes?: boolean }) => (await open())?.catchUp(what);
  /** the desk, with the verdicts and changes other processes kept since */
  const reviewDesk = () => catchUp({ verdicts: true }).then(openDesk);

  // a merge of this workspace (as a fork) into its parent asks it who wrote the lines it brings
  if (deps.store)
    provideLineAuthors(deps.store, async (rel, text) => {
      await catchUp();
      return (await openTracker()).peek(rel, text);
    });

  return {
    review: {
      hunks: (filter) => envelope('review_hunks', async () => (await reviewDesk()).hunks(filter ?? {})),
      accept: (ids) => verdict('review_accept', (d) => d.accept(ids)),
      reject: (ids, reason, options) => verdict('review_reject', (d) => d.reject(ids, reason, options)),
      inbox: notes,
      hold: () => {
        holds++;
        let held = true;
        return async () => {
          if (held) holds--;
          held = false;
          if (holds === 0) await drain();
        };
      },
      drain,
    },
    blame: (path, options) =>
      envelope('blame', async () => {
        await catchUp();
        const [t, { blameTool }] = await Promise.all([openTracker(), import('./tools/review/blame-file.js')]);
        if (typeof path !== 'string')
          throw new ToolError('INVALID_ARGUMENTS', 'blame takes the path of a file as a string', {
            problems: [{ path: '/path', message: 'must be string' }],
          });
        return deps.run(blameTool(t), { path }, options);
      }),
    journal: {
      beforeChange: async () => (await open())?.beforeChange(),
      flush: async () => link?.flush(),
    },
  };
}
