import type { Envelope } from '../src/workspace-core.js';
import type { AcceptResult, HunkFilter, HunkList, RejectResult, ReviewOptions } from '../src/review-hooks.js';
import type { ReviewNote } from '../src/workspace/review/notes.js';
import type { WireCallOptions, WorkerApi } from './protocol.js';

/**
 * The worker's review desk as the page holds it: verdicts cross as plain JSON, and the notes for
 * an agent run come back with each drain into a page-side inbox, so runAgent reads them as it
 * reads a local workspace's.
 */
export interface RemoteReview {
  /** the hunks of the worker's kept changes, oldest change first */
  hunks(filter?: HunkFilter): Promise<Envelope<HunkList>>;
  /** mark hunks accepted (their text stays) */
  accept(ids: string[]): Promise<Envelope<AcceptResult>>;
  /** revert hunks as a new change and tell the agent why */
  reject(ids: string[], reason: string, options?: ReviewOptions): Promise<Envelope<RejectResult>>;
  /** the rejections, as inbox notes (filled by drain and by the end of a hold) */
  readonly inbox: RemoteReviewInbox;
  /** an agent run starts: verdicts queue in the worker until `drain` (the returned function ends the hold) */
  hold(): () => Promise<void>;
  /** apply the queued verdicts now and bring their notes into `inbox` */
  drain(): Promise<void>;
}

/** The page-side inbox of review notes, in the shape runAgent reads. */
export interface RemoteReviewInbox {
  /** the notes not yet taken, oldest first */
  take(): ReviewNote[];
  /** background work still running (none: reviews are not tasks) */
  running(): number;
  /** whether a note asks to wake a waiting agent (never) */
  wakeWaiting(): boolean;
  /** resolves when the signal aborts (no review wakes an agent) */
  whenWoken(signal: AbortSignal): Promise<void>;
}

/** Call options as plain JSON: only the two strings cross. */
export function plainCallOptions(options: WireCallOptions | undefined): WireCallOptions {
  return {
    ...(typeof options?.actor === 'string' ? { actor: options.actor } : {}),
    ...(typeof options?.call_id === 'string' ? { call_id: options.call_id } : {}),
  };
}

/** The worker's review verbs as the page calls them (comlink's proxy, named structurally so the
 * entry's declarations need no comlink or DOM types). */
type ReviewVerb = 'reviewHunks' | 'reviewAccept' | 'reviewReject' | 'reviewHold' | 'reviewRelease' | 'reviewDrain';
type ReviewRemote = {
  [K in ReviewVerb]: (...args: Parameters<WorkerApi[K]>) => Promise<Awaited<ReturnType<WorkerApi[K]>>>;
};

export function remoteReview(remote: ReviewRemote, guarded: <T>(work: () => Promise<T>) => Promise<T>): RemoteReview {
  let notes: ReviewNote[] = [];
  const keep = (taken: ReviewNote[]) => {
    notes.push(...taken);
  };
  return {
    hunks: (filter) => guarded(() => remote.reviewHunks(filter ?? {}) as Promise<Envelope<HunkList>>),
    accept: (ids) => guarded(() => remote.reviewAccept(ids) as Promise<Envelope<AcceptResult>>),
    reject: (ids, reason, options) =>
      guarded(() => remote.reviewReject(ids, reason, options ?? {}) as Promise<Envelope<RejectResult>>),
    inbox: {
      take: () => {
        const taken = notes;
        notes = [];
        return taken;
      },
      running: () => 0,
      wakeWaiting: () => false,
      whenWoken: (signal) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true })),
    },
    hold() {
      // comlink keeps one channel's calls in order, so a verdict sent after this is held
      const token = guarded(() => remote.reviewHold());
      return async () => keep(await guarded(async () => remote.reviewRelease(await token)));
    },
    drain: async () => keep(await guarded(() => remote.reviewDrain())),
  };
}
