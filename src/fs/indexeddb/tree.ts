/** The part of lightning-fs's in-memory tree (its CacheFS) whose cost grows with the tree. */
interface LightningTree {
  _root?: Map<unknown, unknown>;
  _lookup(filepath: string, follow?: boolean): Map<unknown, unknown>;
  autoinc(): number;
  activate(...args: unknown[]): void;
  deactivate(...args: unknown[]): void;
}

/** The key under which lightning-fs keeps an entry's stat in its folder map. */
const STAT = 0;

/**
 * Make two lightning-fs tree operations cost what they do in a real file system:
 *
 * - each new file or folder took the highest inode number by visiting every entry of the tree
 *   (the shadow repository's objects included), so each creation cost more than the one before;
 *   numbers are handed out by a counter instead, seeded from one such visit per activation;
 * - resolving a path rebuilt and re-normalised the path so far at every component, so a lookup
 *   1,100 levels deep cost the depth squared; the plain case (no link on the way) is now one map
 *   look-up per component, and anything else is left to lightning-fs's own lookup.
 *
 * Both stand in on this one instance (no shared code is changed); when lightning-fs's shape is not
 * what this expects, nothing is replaced.
 */
export function tuneLightningTree(candidate: unknown): void {
  const tree = candidate as Partial<LightningTree> | null | undefined;
  if (
    !tree ||
    typeof tree._lookup !== 'function' ||
    typeof tree.autoinc !== 'function' ||
    typeof tree.activate !== 'function' ||
    typeof tree.deactivate !== 'function'
  )
    return;
  const t = tree as LightningTree;
  const lookup = t._lookup.bind(t);
  const highest = t.autoinc.bind(t);
  const activate = t.activate.bind(t);
  const deactivate = t.deactivate.bind(t);
  // null: not known since the tree was (re)loaded, so found by the one full visit
  let next: number | null = null;
  t.activate = (...args) => {
    next = null;
    activate(...args);
  };
  t.deactivate = (...args) => {
    next = null;
    deactivate(...args);
  };
  t.autoinc = () => {
    if (next === null) next = highest();
    return next++;
  };
  t._lookup = (filepath, follow = true) => {
    const root = t._root;
    if (root === undefined || typeof filepath !== 'string' || !filepath.startsWith('/'))
      return lookup(filepath, follow);
    let dir = root.get('/') as Map<unknown, unknown> | undefined;
    const parts = filepath.split('/');
    const last = parts[parts.length - 1] === '' ? parts.length - 2 : parts.length - 1;
    for (let i = 1; i <= last && dir !== undefined; i++) {
      const part = parts[i]!;
      // '' and '.' and '..' are lightning-fs's to interpret, and so is every link on the way
      if (part === '' || part === '.' || part === '..') return lookup(filepath, follow);
      dir = dir.get(part) as Map<unknown, unknown> | undefined;
      if (
        dir !== undefined &&
        (follow || i < last) &&
        (dir.get(STAT) as { type?: string } | undefined)?.type === 'symlink'
      )
        return lookup(filepath, follow);
    }
    if (dir === undefined) throw Object.assign(new Error(`ENOENT: ${filepath}`), { code: 'ENOENT' });
    return dir;
  };
}
