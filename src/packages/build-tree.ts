import { PackageError } from './errors.js';
import { foreignSpec } from './spec-kind.js';
import { entryOfManifest, platformAllows, type Platform } from './manifest-entry.js';
import { pickVersion } from './pick.js';
import type { RegistryClient } from './registry.js';
import { parseRange, satisfies } from './semver.js';
import { allNodes, compareNames, type Edge, makeNode, resolveEdge, type TreeNode } from './tree.js';

/** What building the ideal tree needs. */
export interface BuildTreeOptions {
  registry: RegistryClient;
  platform: Platform;
  /** told each time a package is resolved: resolved so far, and known so far */
  onResolved?: (done: number, known: number) => void;
}

const isPeer = (edge: Edge) => edge.type === 'peer' || edge.type === 'peerOptional';

/** Whether the node found for an edge will do. A dist-tag spec takes whatever is there, as npm does for an existing node. */
function valid(found: TreeNode, edge: Edge): boolean {
  const version = found.entry.version ?? '';
  if (edge.spec === '' || edge.spec === '*' || edge.spec === 'latest') return true;
  return parseRange(edge.spec) ? satisfies(version, edge.spec) : true;
}

/** Whether an edge that starts looking at `start` would reach `target`'s node_modules before any other `name`. */
function reaches(start: TreeNode | null, target: TreeNode, name: string): boolean {
  for (let at = start; at; at = at.parent) {
    if (at === target) return true;
    if (at.children.has(name)) return false;
  }
  return false;
}

/** A package of `version` fits in `target`'s node_modules when no package below that it would shadow minds. */
function fitsAt(target: TreeNode, name: string, version: string): boolean {
  for (const node of allNodes(target)) {
    for (const edge of node.edges) {
      if (edge.name !== name) continue;
      const start = isPeer(edge) ? node.parent : node;
      // An edge nothing satisfies yet is settled later; only one that resolves now can be broken by a shadow.
      if (!resolveEdge(node, edge) || !reaches(start, target, name)) continue;
      if (parseRange(edge.spec) && !satisfies(version, edge.spec)) return false;
    }
  }
  return true;
}

/**
 * Where npm would place a new package for `edge` of `node`: the highest folder, from the
 * package itself (beside it for a peer) up to the root, where nothing of that name is in the way
 * and nothing below would be shadowed by the wrong version: hoisted when it can be, nested on conflict.
 */
function placementFor(node: TreeNode, edge: Edge, version: string): TreeNode {
  const start = isPeer(edge) && node.parent ? node.parent : node;
  let chosen: TreeNode | undefined;
  for (let target: TreeNode | null = start; target; target = target.parent) {
    if (target.children.has(edge.name)) break;
    if (!fitsAt(target, edge.name, version)) break;
    chosen = target;
  }
  return chosen ?? start;
}

/** Drop every package nothing reaches from the root any more (after an uninstall or a change of range). */
function prune(root: TreeNode): void {
  const reached = new Set<TreeNode>([root]);
  const stack = [root];
  while (stack.length) {
    const node = stack.pop()!;
    for (const edge of node.edges) {
      const found = resolveEdge(node, edge);
      if (found && !reached.has(found)) {
        reached.add(found);
        stack.push(found);
      }
    }
  }
  for (const node of allNodes(root).reverse()) if (!reached.has(node)) node.parent?.children.delete(node.name);
}

/**
 * Complete the tree rooted at `root` (fresh, or loaded from a lock) so every dependency resolves,
 * breadth first and in name order as npm's arborist does, then prune what nothing needs.
 */
export async function buildIdealTree(root: TreeNode, options: BuildTreeOptions): Promise<TreeNode> {
  const queue = allNodes(root);
  // Ask for every packument a node may need as soon as the node exists, as npm does: placement
  // stays in order, but the round trips overlap instead of queueing one behind another.
  const prefetch = (node: TreeNode) => {
    for (const edge of node.edges) {
      if (edge.type === 'peerOptional' || foreignSpec(edge.spec)) continue;
      const found = resolveEdge(node, edge);
      // What the tree (a lock) already satisfies needs no packument: a locked install stays offline.
      if (!found || !valid(found, edge)) options.registry.packument(edge.name).catch(() => {});
    }
  };
  prefetch(root);
  const depth = (n: TreeNode) => n.location.split('node_modules/').length;
  let resolved = 0;
  while (queue.length) {
    queue.sort((a, b) => depth(a) - depth(b) || compareNames(a.location, b.location));
    const node = queue.shift()!;
    if (node !== root && node.parent && node.parent.children.get(node.name) !== node) continue;
    for (const edge of [...node.edges].sort((a, b) => compareNames(a.name, b.name))) {
      const found = resolveEdge(node, edge);
      if (edge.type === 'peerOptional') continue;
      if (found && valid(found, edge)) continue;
      const foreign = foreignSpec(edge.spec);
      if (foreign)
        throw new PackageError(
          'NOT_SUPPORTED',
          edge.name,
          `its spec '${edge.spec}' is a ${foreign} spec: only registry versions and tags are installed here`,
          'Depend on a version from the registry instead.',
        );
      const packument = await options.registry.packument(edge.name);
      const manifest = pickVersion(packument, edge.spec);
      const entry = entryOfManifest(manifest);
      if (!platformAllows(entry, options.platform) && edge.type !== 'optional')
        throw new PackageError(
          'NOT_SUPPORTED',
          `${edge.name}@${manifest.version}`,
          `is for os ${JSON.stringify(entry.os ?? [])} and cpu ${JSON.stringify(entry.cpu ?? [])}, not ${options.platform.os}/${options.platform.cpu}`,
        );
      const target = placementFor(node, edge, manifest.version);
      target.children.delete(edge.name);
      const placed = makeNode(edge.name, target, entry);
      prefetch(placed);
      queue.push(placed);
      options.onResolved?.(++resolved, resolved + queue.length);
    }
  }
  prune(root);
  return root;
}
