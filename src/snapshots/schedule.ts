import { ToolError } from '../contract/index.js';
import type { ChangeSummary } from '../workspace/change-log.js';
import type { CommitOutcome, SnapshotStore } from './store.js';

/**
 * Decides when the tools' changes become snapshots: after every mutating call ('call'), once
 * no mutating call is in flight any more ('batch': a turn's parallel calls, or everything inside
 * `batch(fn)`, become one snapshot), or only on request ('manual'). A snapshot failure never
 * fails the call that made the change: its paths stay pending for the next commit, and the
 * error is kept in `lastError`.
 */
export class SnapshotSchedule {
  private inFlight = 0;
  lastError: unknown = null;

  constructor(readonly store: SnapshotStore) {}

  /**
   * Before a mutating call: make sure the state before it is a snapshot (the first one, once).
   * `shared`: the caller holds the lock other processes share, so take their commits first.
   * Answers why history cannot hold this change, or null.
   */
  async before(shared = false): Promise<unknown> {
    this.inFlight++;
    try {
      await this.store.open(shared);
      if (shared) {
        await this.store.catchUp();
        await this.store.commitDeferredOpen();
      }
      return null;
    } catch (error) {
      this.lastError = error;
      try {
        this.store.onError?.(error);
      } catch {
        /* as in commit */
      }
      return error;
    }
  }

  /** After a mutating call (successful or not): snapshot what it changed, when the mode says so; answers the commit's error or null. */
  async after(tool: string, recorded: readonly ChangeSummary[]): Promise<unknown> {
    this.inFlight--;
    const own: string[] = [];
    for (const change of recorded) {
      for (const f of change.files) {
        own.push(f.path);
        if (f.from !== undefined) own.push(f.from);
      }
    }
    for (const p of own) this.store.pending.add(p);
    if (this.store.pending.size === 0 || this.store.when === 'manual') return null;
    if (this.store.when === 'batch' && this.inFlight > 0) return null;
    const ids = recorded.map((c) => c.id).join(' ');
    // 'call': this call's own paths only, so calls that overlap still get one snapshot each, in
    // the order they finished; 'batch': everything pending once the batch is quiet.
    const title = this.store.when === 'batch' ? 'batch' : tool;
    if (this.store.when === 'call' && own.length === 0) return null;
    const outcome = await this.commit(
      { message: title, title, tool, ...(ids ? { change_id: ids } : {}) },
      this.store.when === 'call' ? own : undefined,
    );
    if (outcome === null) return this.lastError;
    // A path of this call that the snapshot could not reach is a change history does not hold.
    const lost = outcome.skipped.find(
      (s) => s.reason === 'unreadable' && own.some((p) => p === s.path || p.startsWith(`${s.path}/`)),
    );
    if (!lost) return null;
    const shown = lost.path.length > 200 ? `${lost.path.slice(0, 100)}...${lost.path.slice(-80)}` : lost.path;
    return new ToolError('IO_ERROR', `'${shown}' could not be recorded (${lost.why}), so the snapshot leaves it out`, {
      hint: 'Keep paths shorter and shallower; the rest of history is intact, and list_snapshots and undo still work.',
    });
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

  private async commit(
    meta: { message: string; title?: string; tool?: string; change_id?: string },
    only?: string[],
  ): Promise<CommitOutcome | null> {
    try {
      return await this.store.commitPending(meta, [], false, only);
    } catch (error) {
      this.lastError = error;
      try {
        this.store.onError?.(error);
      } catch {
        /* a host's listener cannot fail the call */
      }
      return null;
    }
  }
}
