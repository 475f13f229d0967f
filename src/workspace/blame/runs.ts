import type { LineRegion } from '../review/line-regions.js';

/**
 * Who wrote each line of a file, run-length encoded: pairs of (line count, origin index), so a
 * file written by a few changes costs a few numbers however long it is. Origin -1 is unknown
 * (the file was there before the workspace saw it, or something outside the tools wrote it).
 */
export type Runs = number[];

/** The origin index of lines nobody known wrote. */
export const UNKNOWN = -1;

/** `count` lines, all from one origin. */
export function fill(count: number, origin: number): Runs {
  return count > 0 ? [count, origin] : [];
}

function push(out: Runs, count: number, origin: number): void {
  if (count <= 0) return;
  if (out.length > 0 && out[out.length - 1] === origin) out[out.length - 2]! += count;
  else out.push(count, origin);
}

/**
 * The runs after a change: unchanged lines keep their origin, each region's new lines take
 * `origin`. Costs the number of runs plus regions, not the number of lines.
 */
export function applyRegions(runs: Runs, regions: readonly LineRegion[], origin: number): Runs {
  const out: Runs = [];
  let run = 0;
  let left = runs.length > 0 ? runs[0]! : 0;
  let line = 0;
  // copy (keep) or drop `count` old lines, walking the old runs
  const take = (count: number, keep: boolean) => {
    while (count > 0 && run < runs.length) {
      const n = Math.min(count, left);
      if (keep) push(out, n, runs[run + 1]!);
      count -= n;
      left -= n;
      line += n;
      if (left === 0) {
        run += 2;
        left = run < runs.length ? runs[run]! : 0;
      }
    }
  };
  for (const region of regions) {
    take(region.oldStart - line, true);
    take(region.oldCount, false);
    push(out, region.newCount, origin);
  }
  take(Number.POSITIVE_INFINITY, true);
  return out;
}

/** The runs as 1-based inclusive line ranges. */
export function rangesOf(runs: Runs): Array<{ start: number; end: number; origin: number }> {
  const out: Array<{ start: number; end: number; origin: number }> = [];
  let line = 1;
  for (let i = 0; i < runs.length; i += 2) {
    out.push({ start: line, end: line + runs[i]! - 1, origin: runs[i + 1]! });
    line += runs[i]!;
  }
  return out;
}
