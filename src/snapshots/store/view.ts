import type { WorkspaceFs } from '../../fs/types.js';
import { ToolError } from '../../contract/index.js';
import type { History } from '../history.js';
import type { GitAccess } from '../objects.js';
import type { Scanner } from '../rescan.js';
import type { TreeCache } from '../tree.js';

/**
 * What every part of the store reads: the backend, the shadow repository, and the loaded view of
 * it (history and the newest tree). The view is replaced, never edited in place, and only inside
 * the commit queue's `exclusive`, so no part sees another's half-done change. SnapshotStore is
 * the one implementation; the parts take it by this shape so none of them imports the store.
 */
export interface RepositoryView {
  readonly fs: WorkspaceFs;
  readonly toAbs: (rel: string) => string;
  readonly access: GitAccess;
  /** how many snapshots history keeps */
  readonly keep: number;
  history: History;
  tree: TreeCache;
}

/** The lock a root's processes share (the workspace's processLock). */
export interface SharedLock {
  /** wait for the lock; resolves to the function that lets it go */
  acquire(): Promise<() => Promise<void>>;
  /** how many times this process took it afresh: while the count stays, no other process committed */
  readonly takes?: number;
}

/**
 * After a failed commit or restore the cached trees may name objects that were never written:
 * fall back to the head's tree, read lazily from git, and re-read files on the next pass.
 */
export function recoverView(view: RepositoryView, scanner: Scanner): void {
  const head = view.history.head;
  if (head) view.tree.reset(head.tree);
  scanner.forget('');
}

/** History that cannot be read is an error naming the damage and the repair, never a fresh start. */
export function damagedHistory(why: string): ToolError {
  return new ToolError('IO_ERROR', `the snapshot history is damaged: ${why}`, {
    hint: 'Run `sandpit doctor --repair --root <folder>` to reset the history to its newest intact snapshot; the files themselves were not changed.',
  });
}
