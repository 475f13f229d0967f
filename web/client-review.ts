import type { Remote } from 'comlink';
import type { Envelope } from '../src/workspace-core.js';
import type { Hunk, HunkFilter, RejectResult, ReviewOptions } from '../src/review-hooks.js';
import type { ReviewNote } from '../src/workspace/review/notes.js';
import type { WireCallOptions, WorkerApi } from './protocol.js';

/**
 * The worker's review desk as the page holds it: verdicts cross as plain JSON, and the notes for
 * an agent run come back with each drain into a page-side inbox, so runAgent reads them as it
 * reads a local workspace's.
 */
export interface RemoteReview {
  hunks(filter?: HunkFilter): Promise<Envelope<{ hunks: Hunk[] }>>;
  accept(ids: string[]): Promise<Envelope<{ accepted: string[] }>>;
  reject(ids: string[], reason: string, options?: ReviewOptions): Promise<Envelope<RejectResult>>;
  /** the rejections, as inbox notes (filled by drain and by the end of a hold) */
  readonly inbox: {
    take(): ReviewNote[];
    running(): number;
    wakeWaiting(): boolean;
    whenWoken(signal: AbortSignal): Promise<void>;
  };
  hold(): () => Promise<void>;
  drain(): Promise<void>;
}

/** Call options as plain JSON: only the two strings cross. */
export function plainCallOptions(options: WireCallOptions | undefined): WireCallOptions {
  return {
    ...(typeof options?.actor === 'string' ? { actor: options.actor } : {}),
    ...(typeof options?.call_id === 'string' ? { call_id: options.call_id } : {}),
  };
}

export function remoteReview(
  remote: Remote<WorkerApi>,
  guarded: <T>(work: () => Promise<T>) => Promise<T>,
): RemoteReview {
  let notes: ReviewNote[] = [];
  const keep = (taken: ReviewNote[]) => {
    notes.push(...taken);
  };
  return {
    hunks: (filter) => guarded(() => remote.reviewHunks(filter ?? {}) as Promise<Envelope<{ hunks: Hunk[] }>>),
    accept: (ids) => guarded(() => remote.reviewAccept(ids) as Promise<Envelope<{ accepted: string[] }>>),
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
