import { PackageError } from './errors.js';
import { allNodes, compareNames, edgesOf, type EdgeType, makeNode, resolveEdge, type TreeNode } from './tree.js';
import type { LockEntry, Lockfile, ProjectManifest } from './types.js';

/** The root node of a project, from its package.json. */
export function rootNode(manifest: ProjectManifest): TreeNode {
  const entry: LockEntry = {};
  if (manifest.name) entry.name = manifest.name;
  if (manifest.version) entry.version = manifest.version;
  for (const key of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'] as const) {
    const deps = manifest[key];
    if (deps && Object.keys(deps).length) entry[key] = { ...deps };
  }
  return makeNode('', null, entry);
}

/** The tree a lock describes, under the project's root (its dependency maps from package.json). */
export function treeFromLock(manifest: ProjectManifest, lock: Lockfile): TreeNode {
  const root = rootNode(manifest);
  const byLocation = new Map<string, TreeNode>([['', root]]);
  const locations = Object.keys(lock.packages ?? {})
    .filter((l) => l !== '')
    .sort((a, b) => a.split('/').length - b.split('/').length || compareNames(a, b));
  for (const location of locations) {
    const at = location.lastIndexOf('node_modules/');
    if (at === -1 || !location.startsWith('node_modules/'))
      throw new PackageError(
        'NOT_SUPPORTED',
        location,
        'the lock holds a package outside node_modules (workspaces and links are not supported)',
      );
    const parent = byLocation.get(at === 0 ? '' : location.slice(0, at - 1));
    const name = location.slice(at + 'node_modules/'.length);
    if (!parent)
      throw new PackageError(
        'INVALID_ARGUMENTS',
        location,
        'the lock names a package whose parent folder it does not list',
      );
    byLocation.set(location, makeNode(name, parent, { ...lock.packages[location]! }));
  }
  return root;
}

/**
 * Set `dev`, `optional`, `devOptional` and `peer` as npm does: a package is dev when no chain of
 * non-dev dependencies from the root reaches it, optional when every chain passes an optional
 * one, peer when every chain passes a peer dependency.
 */
function flagsOf(
  root: TreeNode,
): Map<TreeNode, { dev: boolean; optional: boolean; devOptional: boolean; peer: boolean }> {
  const reach = (allowed: (type: EdgeType) => boolean): Set<TreeNode> => {
    const seen = new Set<TreeNode>([root]);
    const stack = [root];
    while (stack.length) {
      const node = stack.pop()!;
      for (const edge of node.edges) {
        if (!allowed(edge.type)) continue;
        const found = resolveEdge(node, edge);
        if (found && !seen.has(found)) {
          seen.add(found);
          stack.push(found);
        }
      }
    }
    return seen;
  };
  const prod = reach((t) => t !== 'dev');
  const required = reach((t) => t !== 'optional');
  const strict = reach((t) => t !== 'dev' && t !== 'optional');
  const nonPeer = reach((t) => t !== 'peer' && t !== 'peerOptional');
  const flags = new Map();
  for (const node of allNodes(root)) {
    const dev = !prod.has(node);
    const optional = !required.has(node);
    flags.set(node, { dev, optional, devOptional: !strict.has(node) && !dev && !optional, peer: !nonPeer.has(node) });
  }
  return flags;
}

const FIELD_ORDER: Array<keyof LockEntry> = [
  'name',
  'version',
  'resolved',
  'integrity',
  'dev',
  'optional',
  'devOptional',
  'peer',
  'hasInstallScript',
  'license',
  'dependencies',
  'devDependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'deprecated',
];

/** package-lock.json (lockfileVersion 3) for a tree, its packages in npm's order. */
export function lockOfTree(root: TreeNode): Lockfile {
  const flags = flagsOf(root);
  const packages: Record<string, LockEntry> = {};
  const nodes = allNodes(root).sort((a, b) =>
    a === root ? -1 : b === root ? 1 : compareNames(a.location, b.location),
  );
  for (const node of nodes) {
    const f = flags.get(node)!;
    const merged: LockEntry = { ...node.entry };
    delete merged.dev;
    delete merged.optional;
    delete merged.devOptional;
    delete merged.peer;
    if (node !== root) {
      if (f.dev) merged.dev = true;
      if (f.optional) merged.optional = true;
      if (f.devOptional) merged.devOptional = true;
      if (f.peer) merged.peer = true;
    }
    const ordered: LockEntry = {};
    for (const key of FIELD_ORDER)
      if (merged[key] !== undefined) (ordered as Record<string, unknown>)[key] = merged[key];
    packages[node.location] = ordered;
  }
  const lock: Lockfile = { lockfileVersion: 3, requires: true, packages };
  const head: Partial<Lockfile> = {};
  if (root.entry.name) head.name = root.entry.name;
  if (root.entry.version) head.version = root.entry.version;
  return { ...head, ...lock } as Lockfile;
}

/** The root entry must carry the project's current dependency maps (the lock mirrors package.json). */
export function rootEdgesMatch(root: TreeNode, manifest: ProjectManifest): boolean {
  const fresh = edgesOf(rootNode(manifest).entry, true);
  const key = (e: { name: string; spec: string; type: string }) => `${e.type}:${e.name}@${e.spec}`;
  const a = fresh.map(key).sort();
  const b = root.edges.map(key).sort();
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
