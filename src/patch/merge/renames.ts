import { diffArrays } from 'diff';
import { looksBinary } from '../../text/codec.js';
import type { Leaf } from '../../snapshots/tree.js';
import { splitLines, toBinary } from './merge-lines.js';

/** One side's change to a path against the base: what the base had and what the side has (undefined: absent). */
export interface PathChange {
  before?: Leaf;
  after?: Leaf;
}

/** Pairs compared for similar content at most (beyond that only exact renames are found). */
const MAX_PAIRS = 2500;
/** git's default: half the lines the same makes a rename. */
const SIMILAR = 0.5;

/**
 * The renames among one side's changes, from → to, as git finds them: a removed file and an
 * added file with the same bytes, else (for text files) the pairs whose lines are at least half
 * the same, best first.
 */
export async function findRenames(
  changes: Map<string, PathChange>,
  readBlob: (oid: string) => Promise<Uint8Array>,
): Promise<Map<string, string>> {
  const removed = [...changes].filter(([, c]) => c.before && !c.after && c.before.mode !== '120000');
  const added = [...changes].filter(([, c]) => c.after && !c.before && c.after.mode !== '120000');
  const renames = new Map<string, string>();
  const taken = new Set<string>();
  const byOid = new Map<string, string[]>();
  for (const [path, c] of added) byOid.set(c.after!.oid, [...(byOid.get(c.after!.oid) ?? []), path]);
  for (const [path, c] of removed) {
    const to = byOid.get(c.before!.oid)?.find((p) => !taken.has(p));
    if (to) {
      renames.set(path, to);
      taken.add(to);
    }
  }
  const left = removed.filter(([p]) => !renames.has(p));
  const right = added.filter(([p]) => !taken.has(p));
  if (left.length === 0 || right.length === 0 || left.length * right.length > MAX_PAIRS) return renames;
  const lines = new Map<string, string[] | null>();
  const linesOf = async (oid: string) => {
    if (!lines.has(oid)) {
      const bytes = await readBlob(oid);
      lines.set(oid, looksBinary(bytes) ? null : splitLines(toBinary(bytes)));
    }
    return lines.get(oid)!;
  };
  const scored: Array<{ from: string; to: string; score: number }> = [];
  for (const [from, a] of left) {
    const x = await linesOf(a.before!.oid);
    if (!x || x.length === 0) continue;
    for (const [to, b] of right) {
      const y = await linesOf(b.after!.oid);
      if (!y || y.length === 0) continue;
      if (Math.min(x.length, y.length) < SIMILAR * Math.max(x.length, y.length)) continue;
      let same = 0;
      for (const part of diffArrays(x, y)) if (!part.added && !part.removed) same += part.value.length;
      const score = same / Math.max(x.length, y.length);
      if (score >= SIMILAR) scored.push({ from, to, score });
    }
  }
  scored.sort((p, q) => q.score - p.score || (p.from < q.from ? -1 : 1));
  for (const { from, to } of scored) {
    if (renames.has(from) || taken.has(to)) continue;
    renames.set(from, to);
    taken.add(to);
  }
  return renames;
}
