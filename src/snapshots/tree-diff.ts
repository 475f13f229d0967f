import { filesUnder, type Dir, type Leaf, type TreeCache } from './tree.js';

/** What turns one snapshot tree into another, path by path. */
export interface TreeDiff {
  /** files of the first tree with no file at their path in the second */
  removed: Map<string, Leaf>;
  /** files of the second tree that the first lacks or holds with other bytes or mode: path, new leaf, old leaf */
  written: Array<[string, Leaf, Leaf | undefined]>;
  /** folders only the first tree has */
  goneDirs: string[];
  /** folders only the second tree has */
  newDirs: string[];
}

/**
 * Compare two trees folder by folder, skipping every subtree whose id is the same on both sides:
 * an undo costs the folders its change touched, not two full listings of the workspace (on a
 * 5,000-level tree each listing built 5,000 long paths).
 */
export async function diffTrees(from: TreeCache, to: TreeCache): Promise<TreeDiff> {
  const diff: TreeDiff = { removed: new Map(), written: [], goneDirs: [], newDirs: [] };
  const onlyFrom = async (dir: Dir, rel: string) => {
    diff.goneDirs.push(rel);
    const dirs = new Set<string>();
    for (const [path, leaf] of await filesUnder(from, dir, rel, dirs)) diff.removed.set(path, leaf);
    diff.goneDirs.push(...dirs);
  };
  const onlyTo = async (dir: Dir, rel: string) => {
    diff.newDirs.push(rel);
    const dirs = new Set<string>();
    for (const [path, leaf] of await filesUnder(to, dir, rel, dirs)) diff.written.push([path, leaf, undefined]);
    diff.newDirs.push(...dirs);
  };
  const pairs: Array<{ rel: string; a: Dir; b: Dir }> = [{ rel: '', a: from.root, b: to.root }];
  while (pairs.length > 0) {
    const { rel, a, b } = pairs.pop()!;
    if (a.oid !== null && a.oid === b.oid) continue;
    const left = await from.entries(a);
    const right = await to.entries(b);
    for (const [name, was] of left) {
      const path = rel ? `${rel}/${name}` : name;
      const now = right.get(name);
      if (now === undefined) {
        if (was.kind === 'tree') await onlyFrom(was, path);
        else diff.removed.set(path, was);
      } else if (was.kind === 'tree' && now.kind === 'tree') {
        pairs.push({ rel: path, a: was, b: now });
      } else if (was.kind === 'blob' && now.kind === 'blob') {
        if (was.oid !== now.oid || was.mode !== now.mode) diff.written.push([path, now, was]);
      } else if (was.kind === 'tree') {
        await onlyFrom(was, path);
        diff.written.push([path, now as Leaf, undefined]);
      } else {
        diff.removed.set(path, was);
        await onlyTo(now as Dir, path);
      }
    }
    for (const [name, now] of right) {
      if (left.has(name)) continue;
      const path = rel ? `${rel}/${name}` : name;
      if (now.kind === 'tree') await onlyTo(now, path);
      else diff.written.push([path, now, undefined]);
    }
  }
  return diff;
}
