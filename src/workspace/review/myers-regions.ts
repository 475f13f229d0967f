/** One changed region of a line diff: `oldCount` lines at `oldStart` became `newCount` lines at `newStart` (0-based). */
export interface LineRegion {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
}

/** A step of the edit path, newest first: common lines (0), lines added (1) or removed (2), and how many. */
interface Step {
  kind: 0 | 1 | 2;
  count: number;
  previous: Step | undefined;
}

/** The furthest path found on one diagonal: where it is in the old lines, and its steps. */
interface Path {
  oldPos: number;
  last: Step | undefined;
}

/**
 * The changed regions between lines `[start, endA)` of `a` and `[start, endB)` of `b`, with
 * positions in the whole lists. It walks exactly the edit graph the `diff` package's `diffArrays`
 * walks (Myers' greedy search with its choice between equal paths and its pruning at the graph's
 * edges), so the regions are the ones that diff gives, line for line, and blame and the persisted
 * change log read as before. diffArrays cost a 100-file patch 12 ms: it keeps its paths on
 * negative indices of an array (a dictionary to the engine), copies both lists, and asks the
 * clock at every edit length; this keeps them by diagonal in a plain array and copies nothing.
 */
export function myersRegions(
  a: readonly string[],
  b: readonly string[],
  start: number,
  endA: number,
  endB: number,
): LineRegion[] {
  const oldLen = endA - start;
  const newLen = endB - start;
  // common lines from (oldPos + 1, newPos + 1) on, relative to `start`
  const common = (path: Path, diagonal: number): number => {
    let oldPos = path.oldPos;
    let newPos = oldPos - diagonal;
    let count = 0;
    while (newPos + 1 < newLen && oldPos + 1 < oldLen && a[start + oldPos + 1] === b[start + newPos + 1]) {
      newPos++;
      oldPos++;
      count++;
    }
    if (count) path.last = { kind: 0, count, previous: path.last };
    path.oldPos = oldPos;
    return newPos;
  };
  const step = (path: Path, kind: 1 | 2): Path => {
    const last = path.last;
    const oldPos = path.oldPos + (kind === 2 ? 1 : 0);
    if (last && last.kind === kind) return { oldPos, last: { kind, count: last.count + 1, previous: last.previous } };
    return { oldPos, last: { kind, count: 1, previous: last } };
  };

  const maxEdit = newLen + oldLen;
  // diagonal k (new minus old, as diffArrays counts it: old minus new) at index k + offset
  const offset = maxEdit + 1;
  const best: Array<Path | undefined> = new Array(2 * offset + 1);
  const seed: Path = { oldPos: -1, last: undefined };
  best[offset] = seed;
  let newPos = common(seed, 0);
  if (seed.oldPos + 1 >= oldLen && newPos + 1 >= newLen) return regionsOf(seed.last, start);
  let minDiagonal = -Infinity;
  let maxDiagonal = Infinity;
  for (let edit = 1; edit <= maxEdit; edit++) {
    for (let d = Math.max(minDiagonal, -edit); d <= Math.min(maxDiagonal, edit); d += 2) {
      const removePath = best[offset + d - 1];
      const addPath = best[offset + d + 1];
      if (removePath) best[offset + d - 1] = undefined;
      let canAdd = false;
      if (addPath) {
        const addNewPos = addPath.oldPos - d;
        canAdd = 0 <= addNewPos && addNewPos < newLen;
      }
      const canRemove = removePath !== undefined && removePath.oldPos + 1 < oldLen;
      if (!canAdd && !canRemove) {
        best[offset + d] = undefined;
        continue;
      }
      const path =
        !canRemove || (canAdd && removePath!.oldPos < addPath!.oldPos) ? step(addPath!, 1) : step(removePath!, 2);
      newPos = common(path, d);
      if (path.oldPos + 1 >= oldLen && newPos + 1 >= newLen) return regionsOf(path.last, start);
      best[offset + d] = path;
      if (path.oldPos + 1 >= oldLen) maxDiagonal = Math.min(maxDiagonal, d - 1);
      if (newPos + 1 >= newLen) minDiagonal = Math.max(minDiagonal, d + 1);
    }
  }
  // unreachable: an edit path of oldLen + newLen steps always exists
  throw new Error('no edit path found');
}

/** The regions of an edit path: each run of added and removed lines between common ones. */
function regionsOf(last: Step | undefined, start: number): LineRegion[] {
  const steps: Step[] = [];
  for (let s = last; s; s = s.previous) steps.push(s);
  const regions: LineRegion[] = [];
  let x = start;
  let y = start;
  let open: LineRegion | null = null;
  for (let i = steps.length - 1; i >= 0; i--) {
    const { kind, count } = steps[i]!;
    if (kind === 0) {
      if (open) regions.push(open);
      open = null;
      x += count;
      y += count;
      continue;
    }
    open ??= { oldStart: x, oldCount: 0, newStart: y, newCount: 0 };
    if (kind === 2) {
      open.oldCount += count;
      x += count;
    } else {
      open.newCount += count;
      y += count;
    }
  }
  if (open) regions.push(open);
  return regions;
}
