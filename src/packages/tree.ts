import type { DepMap, LockEntry } from './types.js';

/** How a package depends on another, as npm 7+ distinguishes them. */
export type EdgeType = 'prod' | 'dev' | 'optional' | 'peer' | 'peerOptional';

/** A dependency of one package on a name and a range. */
export interface Edge {
  name: string;
  spec: string;
  type: EdgeType;
}

/** A package placed at one location of the tree (`node_modules/a/node_modules/b`), or the root (''). */
export interface TreeNode {
  name: string;
  /** the location, as the lock's `packages` keys it */
  location: string;
  parent: TreeNode | null;
  children: Map<string, TreeNode>;
  edges: Edge[];
  /** the lock entry this node writes (version, resolved, integrity, dependency maps, ...) */
  entry: LockEntry;
}

/** The edges of a package's dependency maps (the root adds its devDependencies). */
export function edgesOf(entry: LockEntry, isRoot: boolean): Edge[] {
  const edges = new Map<string, Edge>();
  const add = (deps: DepMap | undefined, type: EdgeType) => {
    for (const [name, spec] of Object.entries(deps ?? {})) edges.set(name, { name, spec, type });
  };
  add(entry.peerDependencies, 'peer');
  for (const [name, meta] of Object.entries(entry.peerDependenciesMeta ?? {})) {
    const edge = edges.get(name);
    if (edge && meta.optional) edge.type = 'peerOptional';
  }
  if (isRoot) add(entry.devDependencies, 'dev');
  add(entry.dependencies, 'prod');
  add(entry.optionalDependencies, 'optional');
  return [...edges.values()];
}

/** A node for `name` placed under `parent` (the root when parent is null). */
export function makeNode(name: string, parent: TreeNode | null, entry: LockEntry): TreeNode {
  const location = parent ? `${parent.location ? `${parent.location}/` : ''}node_modules/${name}` : '';
  const node: TreeNode = { name, location, parent, children: new Map(), edges: edgesOf(entry, !parent), entry };
  parent?.children.set(name, node);
  return node;
}

/** What `require(name)` finds from `from`: its own node_modules first, then each folder above. */
export function resolveFrom(from: TreeNode | null, name: string): TreeNode | undefined {
  for (let at = from; at; at = at.parent) {
    const hit = at.children.get(name);
    if (hit) return hit;
  }
  return undefined;
}

/** Where a dependency of `node` is looked up: a peer from beside the package, the rest from inside it. */
export function resolveEdge(node: TreeNode, edge: Edge): TreeNode | undefined {
  const peer = edge.type === 'peer' || edge.type === 'peerOptional';
  return resolveFrom(peer && node.parent ? node.parent : node, edge.name);
}

/** Every node of the tree, parents before children, siblings in name order. */
export function allNodes(root: TreeNode): TreeNode[] {
  const out: TreeNode[] = [];
  const walk = (n: TreeNode) => {
    out.push(n);
    for (const name of [...n.children.keys()].sort(compareNames)) walk(n.children.get(name)!);
  };
  walk(root);
  return out;
}

/** npm sorts names and locations with an English locale compare. */
export const compareNames = (a: string, b: string) => a.localeCompare(b, 'en');
