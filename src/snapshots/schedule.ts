import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import type { ChangeSummary } from '../workspace/change-log.js';
import type { CommitOutcome, SnapshotStore } from './store.js';

/** How a mutating call holds the workspace while it runs, as the workspace passes it to `change`. */
export interface ChangeHold {
  /** lets the process lock go (null: no lock, this process is alone): after the call's commit */
  release: (() => Promise<void>) | null;
  /** runs once the call's commit is done, failed or not, before the lock goes (the journal's flush) */
  afterCommit: () => Promise<void>;
}

/**
 * Owns when the tools' changes become snapshots: after every mutating call ('call'), once no
 * mutating call is in flight any more ('batch': a turn's parallel calls, or everything inside
 * `batch(fn)`, become one snapshot), or only on request ('manual'); with `afterReply`, after the
 * call has answered. A snapshot failure never fails the call that made the change: its paths stay
 * pending for the next commit, the host hears of it (`onError`), and the result says so.
 *
 * Its state, private here: how many mutating calls and batches run now, and (with afterReply)
 * the commits still to run. The order within one call: the lock, `before` (open; holding the lock
 * also the catch-up and the deferred first-open commit), the tool, `after` (the commit), then
 * `afterCommit` and the lock's release.
 */
export class SnapshotSchedule {
  /** mutating calls and batches running now: in 'batch' mode the last one out commits */
  private inFlight = 0;
  /** with afterReply, the commits still to run: every entry point waits for them first */
  private settling: Promise<void> = Promise.resolve();

  constructor(
    readonly store: SnapshotStore,
    readonly afterReply = false,
  ) {}

  /** Resolves when the commits of every call that has answered have run (at once without afterReply). */
  settled(): Promise<void> {
    return this.settling;
  }

  /**
   * Run one mutating call (`work`, whose changes `ctx.recorded` lists) between the snapshot before
   * it and the one after it. A change that history does not hold says so in its result (see
   * withSnapshotError); with afterReply the commit runs after this resolves.
   */
  async change<R>(
    tool: string,
    ctx: { readonly recorded: readonly ChangeSummary[] },
    work: () => Promise<R>,
    hold: ChangeHold,
  ): Promise<R> {
    let commit: Promise<unknown> | null = null;
    try {
      const opened = await this.before(hold.release !== null);
      const result = await work();
      commit = this.after(tool, ctx.recorded);
      const failed = opened ?? (this.afterReply ? null : await commit);
      return failed && ctx.recorded.length > 0 ? withSnapshotError(result, failed) : result;
    } finally {
      // a call that failed part-way still snapshots what it changed before failing
      commit ??= this.after(tool, ctx.recorded);
      const done = commit.then(hold.afterCommit, hold.afterCommit).finally(() => hold.release?.());
      if (this.afterReply) this.settling = this.settling.then(() => done).then(() => {});
      else await done;
    }
  }

  /** Run `work` as one batch: in 'batch' mode its calls become a single snapshot. */
  async batch<T>(work: () => Promise<T>, message = 'batch'): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.store.when !== 'manual' && this.store.pending.size > 0)
        await this.commit({ message, ...(message === 'batch' ? { title: message } : {}) });
    }
  }

  /**
   * Before a mutating call: make sure the state before it is a snapshot (the first one, once).
   * `shared`: the caller holds the lock other processes share, so take their commits first.
   * Answers why history cannot hold this change, or null.
   */
  private async before(shared: boolean): Promise<unknown> {
    this.inFlight++;
    try {
      if (shared) await this.store.openHeld();
      else await this.store.open(false);
      return null;
    } catch (error) {
      this.tell(error);
      return error;
    }
  }

  /** After a mutating call (successful or not): snapshot what it changed, when the mode says so; answers the commit's error or null. */
  private async after(tool: string, recorded: readonly ChangeSummary[]): Promise<unknown> {
    this.inFlight--;
    const own: string[] = [];
    for (const change of recorded) {
      for (const f of change.files) {
        own.push(f.path);
        if (f.from !== undefined) own.push(f.from);
      }
    }
    const { store } = this;
    store.notePending(own);
    if (store.pending.size === 0 || store.when === 'manual') return null;
    if (store.when === 'batch' && this.inFlight > 0) return null;
    const ids = recorded.map((c) => c.id).join(' ');
    // 'call': this call's own paths only, so calls that overlap still get one snapshot each, in
    // the order they finished; 'batch': everything pending once the batch is quiet.
    const title = store.when === 'batch' ? 'batch' : tool;
    if (store.when === 'call' && own.length === 0) return null;
    const outcome = await this.commit(
      { message: title, title, tool, ...(ids ? { change_id: ids } : {}) },
      store.when === 'call' ? own : undefined,
    );
    if (!('done' in outcome)) return outcome.failed;
    // A path of this call that the snapshot could not reach is a change history does not hold.
    const lost = outcome.done.skipped.find(
      (s) => s.reason === 'unreadable' && own.some((p) => p === s.path || p.startsWith(`${s.path}/`)),
    );
    if (!lost) return null;
    const shown = lost.path.length > 200 ? `${lost.path.slice(0, 100)}...${lost.path.slice(-80)}` : lost.path;
    return new ToolError('IO_ERROR', `'${shown}' could not be recorded (${lost.why}), so the snapshot leaves it out`, {
      hint: 'Keep paths shorter and shallower; the rest of history is intact, and list_snapshots and undo still work.',
    });
  }

  private async commit(
    meta: { message: string; title?: string; tool?: string; change_id?: string },
    only?: string[],
  ): Promise<{ done: CommitOutcome } | { failed: unknown }> {
    try {
      return { done: await this.store.commitPending(meta, [], false, only) };
    } catch (error) {
      this.tell(error);
      return { failed: error };
    }
  }

  /** The host hears of a snapshot failure; its listener cannot fail the call. */
  private tell(error: unknown): void {
    try {
      this.store.onError?.(error);
    } catch {
      /* a host's listener cannot fail the call */
    }
  }
}

/** A change that history does not hold says so in its result, so no one relies on undoing it. */
function withSnapshotError<R>(result: R, error: unknown): R {
  if (!result || typeof result !== 'object' || Array.isArray(result)) return result;
  const { code, message, hint } = toToolError(error).toJSON();
  return {
    ...result,
    snapshot_error: {
      code,
      message: `the change was made but is not in the snapshot history: ${message}`,
      ...(hint ? { hint } : {}),
    },
  };
}
