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

  /** Before a mutating call: make sure the state before it is a snapshot (the first one, once). */
  async before(): Promise<void> {
    this.inFlight++;
    try {
      await this.store.open();
    } catch (error) {
      this.lastError = error;
      try { this.store.onError?.(error); } catch { /* as in commit */ }
    }
  }

  /** After a mutating call (successful or not): snapshot what it changed, when the mode says so. */
  async after(tool: string, recorded: readonly ChangeSummary[]): Promise<void> {
    this.inFlight--;
    for (const change of recorded) {
      for (const f of change.files) {
        this.store.pending.add(f.path);
        if (f.from !== undefined) this.store.pending.add(f.from);
      }
    }
    if (this.store.pending.size === 0 || this.store.when === 'manual') return;
    if (this.store.when === 'batch' && this.inFlight > 0) return;
    const paths = [...this.store.pending];
    const shown = paths.slice(0, 5).join(', ') + (paths.length > 5 ? `, and ${paths.length - 5} more` : '');
    const ids = recorded.map((c) => c.id).join(' ');
    await this.commit({ message: `${this.store.when === 'batch' ? 'batch' : tool}: ${shown}`, tool, ...(ids ? { change_id: ids } : {}) });
  }

  /** Run `work` as one batch: in 'batch' mode its calls become a single snapshot. */
  async batch<T>(work: () => Promise<T>, message = 'batch'): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0 && this.store.when !== 'manual' && this.store.pending.size > 0) await this.commit({ message });
    }
  }

  private async commit(meta: { message: string; tool?: string; change_id?: string }): Promise<CommitOutcome | null> {
    try {
      return await this.store.commitPending(meta);
    } catch (error) {
      this.lastError = error;
      try { this.store.onError?.(error); } catch { /* a host's listener cannot fail the call */ }
      return null;
    }
  }
}
