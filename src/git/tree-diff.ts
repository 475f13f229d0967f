import { readTreeEntries, type GitAccess, type StoredTreeEntry } from '../snapshots/objects.js';

/** Where trees are read: a repository, or a function that reads them (a clone's freshly indexed pack). */
export type TreeSource = GitAccess | ((oid: string) => Promise<StoredTreeEntry[]>);

/** A file (blob or symlink) as a tree names it. */
export interface TreeFile {
  oid: string;
  mode: string;
}

/** One path whose file differs between two trees: null on a side means absent there. */
export interface FileChange {
  path: string;
  before: TreeFile | null;
  after: TreeFile | null;
}

type Entries = Map<string, { oid: string; mode: string; type: string }>;

async function entriesOf(source: TreeSource, oid: string | null): Promise<Entries> {
  const out: Entries = new Map();
  if (!oid) return out;
  const tree = typeof source === 'function' ? await source(oid) : await readTreeEntries(source, oid);
  for (const e of tree) out.set(e.path, { oid: e.oid, mode: e.mode, type: e.type });
  return out;
}

/**
 * The files that differ between two trees (null for no tree), sorted by path. Equal subtrees are
 * skipped unread, so a pull that changed two files reads only the trees above them. Submodule
 * entries (gitlinks) are left out: there is nothing to check out for them; the `to` side's
 * gitlinks are added to `gitlinks` when it is given (a clone's index holds them).
 */
export async function diffTrees(
  access: TreeSource,
  from: string | null,
  to: string | null,
  prefix = '',
  gitlinks?: FileChange[],
): Promise<FileChange[]> {
  if (from === to) return [];
  const [a, b] = await Promise.all([entriesOf(access, from), entriesOf(access, to)]);
  if (gitlinks)
    for (const [name, e] of b)
      if (e.type === 'commit')
        gitlinks.push({ path: prefix + name, before: null, after: { oid: e.oid, mode: e.mode } });
  const out: FileChange[] = [];
  for (const name of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const x = a.get(name);
    const y = b.get(name);
    const path = prefix + name;
    if (x && y && x.oid === y.oid && x.mode === y.mode) continue;
    const xTree = x?.type === 'tree' ? x.oid : null;
    const yTree = y?.type === 'tree' ? y.oid : null;
    if (xTree || yTree) out.push(...(await diffTrees(access, xTree, yTree, `${path}/`, gitlinks)));
    const xFile = x?.type === 'blob' ? { oid: x.oid, mode: x.mode } : null;
    const yFile = y?.type === 'blob' ? { oid: y.oid, mode: y.mode } : null;
    if (xFile || yFile) out.push({ path, before: xFile, after: yFile });
  }
  return out.sort((p, q) => (p.path < q.path ? -1 : p.path > q.path ? 1 : 0));
}
