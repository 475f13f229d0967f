import { readTreeEntries, TREE_MODE, type GitAccess, type ObjectSink, type TreeEntry } from './objects.js';

/** A file (or symlink) in a snapshot. */
export interface Leaf {
  kind: 'blob';
  mode: string;
  oid: string;
}

/** A folder: its id when it is written and unchanged (null once dirty), entries once loaded. */
export interface Dir {
  kind: 'tree';
  oid: string | null;
  entries: Map<string, Leaf | Dir> | null;
}

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The last snapshot's tree, kept in memory and loaded from git one folder at a time, on demand.
 * A change marks only the folders on its path dirty; `write` then writes those trees and
 * reuses every other subtree by id, so a snapshot costs the depth of the change, not the size
 * of the workspace.
 */
export class TreeCache {
  root: Dir;
  /**
   * The folder the last `set` changed something in, with the folders above it: a rescan sets
   * paths in sorted order, so the next one usually starts there instead of at the root, and a
   * 5,000-level chain costs 5,000 steps, not 5,000 per level. Dropped when the root is replaced.
   */
  #last: { rel: string; chain: Dir[] } | null = null;

  constructor(
    private readonly access: GitAccess,
    rootOid: string = EMPTY_TREE,
  ) {
    this.root = { kind: 'tree', oid: rootOid, entries: rootOid === EMPTY_TREE ? new Map() : null };
  }

  /** Replace the whole tree with another snapshot's (restore); loaded lazily again. */
  reset(rootOid: string): void {
    this.#last = null;
    this.root = { kind: 'tree', oid: rootOid, entries: rootOid === EMPTY_TREE ? new Map() : null };
  }

  async entries(dir: Dir): Promise<Map<string, Leaf | Dir>> {
    if (dir.entries) return dir.entries;
    const tree = await readTreeEntries(this.access, dir.oid!);
    const map = new Map<string, Leaf | Dir>();
    for (const e of tree) {
      map.set(
        e.path,
        e.type === 'tree' ? { kind: 'tree', oid: e.oid, entries: null } : { kind: 'blob', mode: e.mode, oid: e.oid },
      );
    }
    dir.entries = map;
    return map;
  }

  /** The entry at a root-relative path, or undefined. */
  async get(rel: string): Promise<Leaf | Dir | undefined> {
    let node: Leaf | Dir = this.root;
    for (const part of split(rel)) {
      if (node.kind !== 'tree') return undefined;
      // loaded folders without an await each: a step per level, not a task per level
      const next: Leaf | Dir | undefined = (node.entries ?? (await this.entries(node))).get(part);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /** Put a file or folder at `rel` (replacing whatever was there), or remove what is there. */
  async set(rel: string, leaf: Leaf | Dir | null): Promise<void> {
    const slash = rel.lastIndexOf('/');
    if (rel === '') {
      if (leaf === null) {
        this.#last = null;
        this.root = { kind: 'tree', oid: null, entries: new Map() };
      }
      return;
    }
    const parent = slash === -1 ? '' : rel.slice(0, slash);
    const name = rel.slice(slash + 1);
    const last = this.#last;
    let chain: Dir[];
    let from: number;
    if (last !== null && (parent === last.rel || parent.startsWith(`${last.rel}/`) || last.rel === '')) {
      chain = last.chain.slice();
      from = last.rel === '' ? 0 : last.rel.length + 1;
    } else {
      chain = [this.root];
      from = 0;
    }
    let dir = chain[chain.length - 1]!;
    let made = -1;
    if (from < parent.length + 1 && parent !== '') {
      for (const part of parent.slice(from).split('/')) {
        const map = dir.entries ?? (await this.entries(dir));
        let next = map.get(part);
        if (!next || next.kind !== 'tree') {
          if (leaf === null) return;
          next = { kind: 'tree', oid: null, entries: new Map() };
          map.set(part, next);
          if (made === -1) made = chain.length;
        }
        dir = next;
        chain.push(dir);
      }
    }
    const map = dir.entries ?? (await this.entries(dir));
    const current = map.get(name);
    if (leaf === null) {
      if (!current) return;
      map.delete(name);
    } else {
      if (leaf.kind === 'tree' && current?.kind === 'tree') {
        this.#last = { rel: parent, chain };
        return;
      }
      if (leaf.kind === 'blob' && current?.kind === 'blob' && current.oid === leaf.oid && current.mode === leaf.mode)
        return;
      map.set(name, leaf);
    }
    // the chain ends at the folder changed, above what was replaced or removed: still in the tree
    this.#last = { rel: parent, chain };
    // every folder on the way is dirty now; one that was dirty before has dirty parents already
    // (write cleans from the root down), so the marking stops there
    for (let i = (made === -1 ? chain.length : made) - 1; i >= 0 && chain[i]!.oid !== null; i--) chain[i]!.oid = null;
  }

  /** Make sure a folder is there (an empty one is kept, as the empty tree). */
  async ensureDir(rel: string): Promise<void> {
    await this.set(rel, { kind: 'tree', oid: null, entries: new Map() });
  }

  /**
   * Write every dirty folder (children first) and return the root tree's id. No recursion: a
   * 5,000-level folder overflowed the stack, and the snapshot failed as an internal error.
   */
  async write(sink: ObjectSink): Promise<string> {
    // parents before children; written in reverse, so each child's id is known before its parent
    const dirty: Dir[] = [];
    const todo: Dir[] = [this.root];
    while (todo.length > 0) {
      const dir = todo.pop()!;
      if (dir.oid !== null) continue;
      dirty.push(dir);
      for (const node of dir.entries!.values()) if (node.kind === 'tree' && node.oid === null) todo.push(node);
    }
    for (let i = dirty.length - 1; i >= 0; i--) {
      const dir = dirty[i]!;
      const entries: TreeEntry[] = [];
      for (const [name, node] of dir.entries!) {
        // Empty folders stay, as entries pointing at the empty tree: git never makes those, but
        // reads them fine, and without them undo could not bring back an empty folder.
        if (node.kind === 'tree') entries.push({ mode: TREE_MODE, path: name, oid: node.oid!, type: 'tree' });
        else entries.push({ mode: node.mode, path: name, oid: node.oid, type: 'blob' });
      }
      dir.oid = await sink.tree(entries);
    }
    return this.root.oid!;
  }

  /** Every file under `rel` (default: all), as root-relative path to leaf. Loads what it visits. */
  async files(rel = '', dirs?: Set<string>): Promise<Map<string, Leaf>> {
    const out = new Map<string, Leaf>();
    const node = await this.get(rel);
    if (!node) return out;
    if (node.kind === 'blob') {
      out.set(rel, node);
      return out;
    }
    await walkDir(this, node, rel, out, dirs);
    return out;
  }
}

/** The files below folder `dir` of `cache` (found at `rel`), and its folders below it into `dirs`. */
export async function filesUnder(
  cache: TreeCache,
  dir: Dir,
  rel: string,
  dirs?: Set<string>,
): Promise<Map<string, Leaf>> {
  const out = new Map<string, Leaf>();
  await walkDir(cache, dir, rel, out, dirs);
  return out;
}

/** Files into `out`, and (when asked) every folder below `rel` into `dirs`, depth first, without recursion (deep trees). */
async function walkDir(
  cache: TreeCache,
  dir: Dir,
  rel: string,
  out: Map<string, Leaf>,
  dirs?: Set<string>,
): Promise<void> {
  const stack = [{ entries: (await cache.entries(dir)).entries(), rel }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    const next = top.entries.next();
    if (next.done) {
      stack.pop();
      continue;
    }
    const [name, node] = next.value;
    const path = top.rel ? `${top.rel}/${name}` : name;
    if (node.kind === 'blob') out.set(path, node);
    else {
      dirs?.add(path);
      stack.push({ entries: (await cache.entries(node)).entries(), rel: path });
    }
  }
}

export function split(rel: string): string[] {
  return rel === '' ? [] : rel.split('/');
}
