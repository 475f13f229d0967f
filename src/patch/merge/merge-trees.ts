import type { Problem } from '../../contract/index.js';
import type { GitAccess } from '../../snapshots/objects.js';
import { diffTrees } from '../../snapshots/tree-diff.js';
import { TreeCache, type Leaf } from '../../snapshots/tree.js';
import { looksBinary } from '../../text/codec.js';
import { mergeLines, type ConflictHunk } from './merge-lines.js';
import { findRenames, type PathChange } from './renames.js';

/** One file the merge changes in the workspace merged into. */
export interface MergedFile {
  path: string;
  action: 'added' | 'modified' | 'deleted' | 'renamed';
  /** for a rename: where the file was */
  from?: string;
  /** the new content: a stored blob, or merged bytes (absent for a deletion) */
  oid?: string;
  bytes?: Uint8Array;
  mode?: string;
  /** where the fork's side of the file is (its path in the fork and its blob), when the fork changed it */
  theirs?: { path: string; oid: string };
}

/** Why a path cannot merge by itself. */
export type ConflictKind =
  | 'content'
  | 'binary'
  | 'modify/delete'
  | 'rename/delete'
  | 'rename/rename'
  | 'add/add'
  | 'mode'
  | 'file/directory';

/** A path that conflicts: the kind, and for text both sides' regions with the base's. */
export interface MergeConflict extends Problem {
  kind: ConflictKind;
  hunks?: ConflictHunk[];
}

/** What a merge of a fork would do: the files, or the conflicts that stop it. */
export interface MergePlan {
  files: MergedFile[];
  conflicts: MergeConflict[];
}

/**
 * Plan the three-way merge of tree `theirs` into `ours` against `base` (all tree ids in one
 * store): only the folders that differ are read, so the cost follows the changed files. Each
 * path merges as git merge does: one side's change is taken, text both changed merges by line,
 * binary files and links merge only when identical or changed on one side, renames (found as git
 * finds them) carry the other side's edits, and a deletion against an edit conflicts.
 */
export async function planMerge(
  access: GitAccess,
  trees: { base: string; ours: string | TreeCache; theirs: string },
  readBlob: (oid: string) => Promise<Uint8Array>,
): Promise<MergePlan> {
  const base = new TreeCache(access, trees.base);
  // the caller's cache of our tree, when it has one: its folders are read once for both
  const ours = typeof trees.ours === 'string' ? new TreeCache(access, trees.ours) : trees.ours;
  const theirs = new TreeCache(access, trees.theirs);
  const mine = await changesOf(base, ours);
  const yours = await changesOf(base, theirs);
  const myRenames = await findRenames(mine, readBlob);
  const yourRenames = await findRenames(yours, readBlob);
  const plan: MergePlan = { files: [], conflicts: [] };
  const handled = new Set<string>();
  const conflict = (path: string, kind: ConflictKind, message: string, hunks?: ConflictHunk[]) =>
    plan.conflicts.push({ path, kind, message, ...(hunks ? { hunks } : {}) });

  for (const [from, to] of yourRenames) {
    handled.add(from).add(to);
    const mineFrom = mine.get(from);
    const theirsTo = yours.get(to)!.after!;
    const baseFrom = yours.get(from)!.before!;
    if (myRenames.has(from)) {
      const myTo = myRenames.get(from)!;
      if (myTo !== to) {
        conflict(from, 'rename/rename', `renamed to '${myTo}' in the workspace and to '${to}' in the fork`);
        continue;
      }
      await mergeInto(to, baseFrom, mine.get(to)!.after!, theirsTo, to);
      continue;
    }
    if (mineFrom && !mineFrom.after) {
      conflict(from, 'rename/delete', `deleted in the workspace but renamed to '${to}' in the fork`);
      continue;
    }
    const atTo = await ours.get(to);
    if (atTo && !(atTo.kind === 'blob' && atTo.oid === theirsTo.oid)) {
      conflict(to, 'add/add', `the fork renamed '${from}' to '${to}', which the workspace also has`);
      continue;
    }
    const result = mineFrom ? await content(to, baseFrom, mineFrom.after!, theirsTo) : theirsTo;
    if (!result) continue;
    plan.files.push({ path: from, action: 'deleted' });
    plan.files.push({ ...result, path: to, action: 'renamed', from, theirs: { path: to, oid: theirsTo.oid } });
  }

  for (const [from, to] of myRenames) {
    if (handled.has(from)) continue;
    const change = yours.get(from);
    if (!change) continue;
    handled.add(from);
    if (!change.after) conflict(from, 'rename/delete', `renamed to '${to}' in the workspace but deleted in the fork`);
    else await mergeInto(to, change.before!, mine.get(to)!.after!, change.after, from);
  }

  for (const [path, change] of yours) {
    if (handled.has(path)) continue;
    const local = mine.get(path);
    if (!change.after) {
      if (!local) plan.files.push({ path, action: 'deleted' });
      else if (local.after) conflict(path, 'modify/delete', 'changed in the workspace but deleted in the fork');
      continue;
    }
    if (!local) {
      if (await blockedByFile(ours, path, mine)) {
        conflict(
          path,
          'file/directory',
          'the fork has a file where the workspace has a folder, or the other way round',
        );
        continue;
      }
      plan.files.push(leafFile(path, change.before ? 'modified' : 'added', change.after));
    } else if (!local.after) conflict(path, 'modify/delete', 'deleted in the workspace but changed in the fork');
    else await mergeInto(path, change.before, local.after, change.after, path);
  }
  const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  plan.files.sort(byPath);
  plan.conflicts.sort(byPath);
  return plan;

  /** Merge three versions of one path; the workspace file changes only when the result differs from it. */
  async function mergeInto(
    path: string,
    was: Leaf | undefined,
    mineNow: Leaf,
    theirsNow: Leaf,
    theirsPath: string,
  ): Promise<void> {
    const result = await content(path, was, mineNow, theirsNow);
    if (!result) return;
    if (result.oid === mineNow.oid && result.mode === mineNow.mode) return;
    plan.files.push({ ...result, path, action: 'modified', theirs: { path: theirsPath, oid: theirsNow.oid } });
  }

  async function content(
    path: string,
    was: Leaf | undefined,
    a: Leaf,
    b: Leaf,
  ): Promise<Pick<MergedFile, 'oid' | 'bytes' | 'mode'> | null> {
    const mode = a.mode === b.mode ? a.mode : a.mode === was?.mode ? b.mode : b.mode === was?.mode ? a.mode : null;
    if (mode === null) {
      conflict(path, 'mode', `the file's mode is ${a.mode} in the workspace and ${b.mode} in the fork`);
      return null;
    }
    if (a.oid === b.oid || b.oid === was?.oid) return { oid: a.oid, mode };
    if (a.oid === was?.oid) return { oid: b.oid, mode };
    if (a.mode === '120000' || b.mode === '120000') {
      conflict(path, 'content', 'a link points elsewhere in the workspace than in the fork');
      return null;
    }
    const [mineBytes, theirBytes, baseBytes] = await Promise.all([
      readBlob(a.oid),
      readBlob(b.oid),
      was ? readBlob(was.oid) : Promise.resolve(new Uint8Array(0)),
    ]);
    if (looksBinary(mineBytes) || looksBinary(theirBytes) || looksBinary(baseBytes)) {
      conflict(path, 'binary', 'a binary file changed differently in the workspace and in the fork');
      return null;
    }
    const merged = mergeLines(baseBytes, mineBytes, theirBytes);
    if (!merged.clean) {
      const kind = was ? 'content' : 'add/add';
      const n = merged.conflicts.length;
      conflict(
        path,
        kind,
        `${n} region${n === 1 ? '' : 's'} changed differently in the workspace and in the fork`,
        merged.conflicts,
      );
      return null;
    }
    return { bytes: merged.bytes, mode };
  }
}

function leafFile(path: string, action: MergedFile['action'], leaf: Leaf): MergedFile {
  return { path, action, oid: leaf.oid, mode: leaf.mode, theirs: { path, oid: leaf.oid } };
}

/** One side's changes against the base, by path. */
async function changesOf(base: TreeCache, side: TreeCache): Promise<Map<string, PathChange>> {
  const diff = await diffTrees(base, side);
  const out = new Map<string, PathChange>();
  for (const [path, leaf] of diff.removed) out.set(path, { before: leaf });
  for (const [path, now, was] of diff.written) out.set(path, { ...(was ? { before: was } : {}), after: now });
  return out;
}

/** The workspace has a folder at `path`, or a file at a folder above it that it keeps. */
async function blockedByFile(ours: TreeCache, path: string, mine: Map<string, PathChange>): Promise<boolean> {
  if ((await ours.get(path))?.kind === 'tree') return true;
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const above = parts.slice(0, i).join('/');
    if ((await ours.get(above))?.kind === 'blob' && mine.get(above)?.after !== undefined) return true;
  }
  return false;
}
