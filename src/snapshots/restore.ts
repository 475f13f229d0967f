import { hasFsCode } from '../fs/errors.js';
import type { CommitMeta, SnapshotInfo } from './history.js';
import type { SnapshotStore } from './store.js';
import { TreeCache, type Leaf } from './tree.js';

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
 * restore itself can be undone; `pick` chooses the target after that.
 */
export async function restoreSnapshot(
  store: SnapshotStore,
  pick: () => SnapshotInfo | Promise<SnapshotInfo>,
  meta: Omit<CommitMeta, 'files_changed'>,
): Promise<RestoreOutcome & { target: SnapshotInfo; previous: SnapshotInfo }> {
  await store.rescan({ message: 'Changes not yet in a snapshot, saved before a restore', tool: meta.tool });
  return store.exclusive(async () => {
    // Chosen after that save, so "one step back" counts it.
    const target = await pick();
    const previous = store.history.head!;
    try {
      return await rewrite(store, target, previous, meta);
    } catch (error) {
      store.recover();
      throw error;
    }
  });
}

async function rewrite(
  store: SnapshotStore,
  target: SnapshotInfo,
  previous: SnapshotInfo,
  meta: Omit<CommitMeta, 'files_changed'>,
): Promise<RestoreOutcome & { target: SnapshotInfo; previous: SnapshotInfo }> {
  const currentDirs = new Set<string>();
  const wantedDirs = new Set<string>();
  const current = await store.tree.files('', currentDirs);
  const wanted = await new TreeCache(store.access, target.tree).files('', wantedDirs);
  const files: RestoredFile[] = [];
  const removed = [...current.keys()].filter((p) => !wanted.has(p));
  for (const path of removed) {
    files.push({ path, before: await store.readBlob(current.get(path)!.oid), after: null });
    await store.fs.unlink(store.toAbs(path)).catch((e) => { if (!hasFsCode(e, 'ENOENT')) throw e; });
  }
  // Folders: gone ones deepest first (one still holding ignored files stays), new ones outermost first.
  for (const dir of [...currentDirs].filter((d) => !wantedDirs.has(d)).sort().reverse()) {
    await store.fs.rmdir(store.toAbs(dir)).catch((e) => { if (!hasFsCode(e, 'ENOENT', 'ENOTEMPTY', 'EEXIST')) throw e; });
  }
  for (const dir of [...wantedDirs].filter((d) => !currentDirs.has(d)).sort()) {
    await store.fs.mkdir(store.toAbs(dir)).catch((e) => { if (!hasFsCode(e, 'EEXIST')) throw e; });
  }
  for (const [path, leaf] of wanted) {
    const was = current.get(path);
    if (was && was.oid === leaf.oid && was.mode === leaf.mode) continue;
    const after = await store.readBlob(leaf.oid);
    files.push({ path, before: was ? await store.readBlob(was.oid) : null, after });
    await writeBack(store, path, leaf, was, after);
  }
  store.forget(files.map((f) => f.path));
  store.tree.reset(target.tree);
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const snapshot = await store.writeCommit(target.tree, { ...meta, files_changed: files.length, restored_to: target.oid });
  return { files, snapshot, target, previous };
}

async function writeBack(store: SnapshotStore, path: string, leaf: Leaf, was: Leaf | undefined, bytes: Uint8Array): Promise<void> {
  const abs = store.toAbs(path);
  // Writes never follow a link: a link is replaced by removing it first.
  if (leaf.mode === '120000' || was?.mode === '120000') {
    await store.fs.unlink(abs).catch((e) => { if (!hasFsCode(e, 'ENOENT')) throw e; });
  }
  if (leaf.mode === '120000') await store.fs.symlink(new TextDecoder().decode(bytes), abs);
  else if (leaf.mode === '100755' || was?.mode === '100755') await store.fs.writeFile(abs, bytes, { mode: leaf.mode === '100755' ? 0o755 : 0o644 });
  else await store.fs.writeFile(abs, bytes);
}
