import { decodeText, isDecodeFailure } from '../text/codec.js';
import { countLineChanges, unifiedFileDiff } from '../text/line-diff.js';
import type { SnapshotStore } from './store.js';
import { TreeCache, type Dir, type Leaf } from './tree.js';

export interface FileDiff {
  path: string;
  status: 'added' | 'modified' | 'deleted';
  added_lines: number;
  removed_lines: number;
  binary?: boolean;
}

export interface SnapshotDiff {
  files: FileDiff[];
  unified_diff: string;
  truncated: boolean;
}

/** Past this many characters the unified diff is cut (the per-file list stays complete). */
const MAX_DIFF_CHARS = 200_000;

/**
 * The difference between two snapshot trees, optionally under one path. Equal subtrees are
 * skipped by id, so the cost follows the size of the difference.
 */
export async function diffTrees(store: SnapshotStore, from: string, to: string, path = ''): Promise<SnapshotDiff> {
  const a = new TreeCache(store.access, from);
  const b = new TreeCache(store.access, to);
  const pairs: Array<[string, Leaf | undefined, Leaf | undefined]> = [];
  await compare(a, b, await a.get(path), await b.get(path), path, pairs);
  const files: FileDiff[] = [];
  let unified = '';
  let truncated = false;
  for (const [p, x, y] of pairs.sort((m, n) => (m[0] < n[0] ? -1 : 1))) {
    const before = x ? shown(x, await store.readBlob(x.oid)) : null;
    const after = y ? shown(y, await store.readBlob(y.oid)) : null;
    const status = !x ? 'added' : !y ? 'deleted' : 'modified';
    const binary = before === undefined || after === undefined;
    const counts = binary ? { added_lines: 0, removed_lines: 0 } : countLineChanges(before, after);
    files.push({ path: p, status, ...counts, ...(binary ? { binary: true } : {}) });
    const text = binary
      ? `Binary files ${x ? `a/${p}` : '/dev/null'} and ${y ? `b/${p}` : '/dev/null'} differ\n`
      : unifiedFileDiff(p, before, after);
    if (unified.length + text.length > MAX_DIFF_CHARS) truncated = true;
    else unified += text;
  }
  return { files, unified_diff: unified, truncated };
}

async function compare(
  a: TreeCache,
  b: TreeCache,
  x: Leaf | Dir | undefined,
  y: Leaf | Dir | undefined,
  path: string,
  out: Array<[string, Leaf | undefined, Leaf | undefined]>,
): Promise<void> {
  if (x && y && x.oid !== null && x.oid === y.oid && x.kind === y.kind) return;
  if (x?.kind === 'tree' || y?.kind === 'tree') {
    const left = x?.kind === 'tree' ? await a.entries(x) : new Map<string, Leaf | Dir>();
    const right = y?.kind === 'tree' ? await b.entries(y) : new Map<string, Leaf | Dir>();
    for (const name of new Set([...left.keys(), ...right.keys()])) {
      await compare(a, b, left.get(name), right.get(name), path ? `${path}/${name}` : name, out);
    }
  }
  const fileX = x?.kind === 'blob' ? x : undefined;
  const fileY = y?.kind === 'blob' ? y : undefined;
  if (fileX || fileY) {
    if (fileX && fileY && fileX.oid === fileY.oid && fileX.mode === fileY.mode) return;
    out.push([path, fileX, fileY]);
  }
}

/**
 * A link's blob is its target; an absolute target is a host path, which no result may carry, so the
 * diff shows that the link changed without saying where it points.
 */
function shown(leaf: Leaf, bytes: Uint8Array): string | undefined {
  const text = decode(bytes);
  if (leaf.mode !== '120000' || text === undefined) return text;
  return /^([/\\]|[a-z]:)/i.test(text) ? '(a link to an absolute host path, not shown)' : text;
}

/** Text for the diff, or undefined for binary or undecodable content. */
function decode(bytes: Uint8Array): string | undefined {
  const decoded = decodeText(bytes);
  return isDecodeFailure(decoded) ? undefined : decoded.text;
}
