import type { FileStep, FileWriter } from '../workspace/file-writer.js';
import type { CommitMeta, SnapshotInfo } from './history.js';
import type { SnapshotStore } from './store.js';
import { TreeCache, type Leaf } from './tree.js';
import { diffTrees } from './tree-diff.js';

/** One file a restore rewrote: its bytes before and after (null when absent). */
export interface RestoredFile {
  path: string;
  before: Uint8Array | null;
  after: Uint8Array | null;
}

export interface RestoreOutcome {
  files: RestoredFile[];
  snapshot: SnapshotInfo;
}

/**
 * Bring the workspace back to `target`'s files and folders: write back what differs, byte for
 * byte, remove what did not exist then, then record the result as a new
 * snapshot whose tree is the target's. Whatever no snapshot held yet is committed first, so the
 * restore itself can be undone; `pick` chooses the target after that. The caller holds the path
 * lock of the whole workspace ('').
 */
export async function restoreSnapshot(
  store: SnapshotStore,
  writer: FileWriter,
  pick: () => SnapshotInfo | Promise<SnapshotInfo>,
  meta: Omit<CommitMeta, 'files_changed'>,
): Promise<RestoreOutcome & { target: SnapshotInfo; previous: SnapshotInfo }> {
  await store.rescan({ message: 'Changes not yet in a snapshot, saved before a restore', tool: meta.tool });
  return store.exclusive(async () => {
    // Chosen after that save, so "one step back" counts it.
    const target = await pick();
    const previous = store.history.head!;
    try {
      return await rewrite(store, writer, target, previous, meta);
    } catch (error) {
      store.recover();
      throw error;
    }
  });
}

async function rewrite(
  store: SnapshotStore,
  writer: FileWriter,
  target: SnapshotInfo,
  previous: SnapshotInfo,
  meta: Omit<CommitMeta, 'files_changed'>,
): Promise<RestoreOutcome & { target: SnapshotInfo; previous: SnapshotInfo }> {
  // only the folders whose ids differ are compared: the cost of the change, not of the workspace
  const wanted = new TreeCache(store.access, target.tree);
  const diff = await diffTrees(store.tree, wanted);
  const files: RestoredFile[] = [];
  const steps: FileStep[] = [];
  for (const [path, leaf] of diff.removed) {
    const before = await store.readBlob(leaf.oid);
    files.push({ path, before, after: null });
    steps.push({ kind: 'remove', rel: path, before });
  }
  // Folders: gone ones deepest first (one still holding ignored files stays), new ones outermost first.
  for (const dir of diff.goneDirs.sort().reverse()) steps.push({ kind: 'rmdir', rel: dir, keepIfNotEmpty: true });
  for (const dir of diff.newDirs.sort()) steps.push({ kind: 'mkdir', rel: dir });
  for (const [path, leaf, was] of diff.written) {
    const after = await store.readBlob(leaf.oid);
    const before = was ? await store.readBlob(was.oid) : null;
    files.push({ path, before, after });
    steps.push(writeBack(path, leaf, was, after));
  }
  // The caller holds the lock of the whole workspace, so no call sees a half-restored file.
  await writer.apply(steps, { locked: true, allOrNothing: false, noteForSnapshot: false });
  store.forget(files.map((f) => f.path));
  // the target's tree, with the folders the comparison loaded: the commit after the call then
  // finds the restored paths without reading their trees from git again
  store.tree = wanted;
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const snapshot = await store.writeCommit(target.tree, {
    ...meta,
    files_changed: files.length,
    restored_to: target.oid,
  });
  return { files, snapshot, target, previous };
}

/** The step that puts a snapshot's file back: a link as a link, the executable bit where it was or is. */
function writeBack(path: string, leaf: Leaf, was: Leaf | undefined, bytes: Uint8Array): FileStep {
  if (leaf.mode === '120000') return { kind: 'link', rel: path, target: new TextDecoder().decode(bytes) };
  const modeMatters = leaf.mode === '100755' || was?.mode === '100755';
  return { kind: 'write', rel: path, bytes, ...(modeMatters ? { executable: leaf.mode === '100755' } : {}) };
}
