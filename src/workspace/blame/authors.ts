import type { LineAuthor } from '../change-log.js';
import { changedRegions, linesOf } from '../review/line-regions.js';
import type { BlameRange } from './tracker.js';

/**
 * The authors of `from`'s lines (a fork's blame of its text) carried to the lines of `to` (the
 * merged text) that are the same lines: lines only `to` has, and lines nobody known wrote, get
 * none. `fork` names the fork whose change log holds the changes.
 */
export function carryAuthors(ranges: readonly BlameRange[], from: string, to: string, fork: string): LineAuthor[] {
  const known = ranges.filter((r) => r.change_id !== null && r.tool !== null);
  if (known.length === 0) return [];
  const fromLines = linesOf(from).length;
  const owner = new Int32Array(fromLines).fill(-1);
  known.forEach((r, i) => {
    for (let l = Math.max(1, r.start_line); l <= Math.min(r.end_line, fromLines); l++) owner[l - 1] = i;
  });
  const toLines = linesOf(to);
  const carried = new Int32Array(toLines.length).fill(-1);
  if (from === to) carried.set(owner);
  else {
    let x = 0;
    let y = 0;
    const keep = (until: number) => {
      for (; x < until && y < carried.length; x++, y++) carried[y] = owner[x]!;
    };
    for (const region of changedRegions(linesOf(from), toLines)) {
      keep(region.oldStart);
      x = region.oldStart + region.oldCount;
      y = region.newStart + region.newCount;
    }
    keep(fromLines);
  }
  const out: LineAuthor[] = [];
  for (let y = 0; y < carried.length; ) {
    const i = carried[y]!;
    let end = y;
    while (end + 1 < carried.length && carried[end + 1] === i) end++;
    if (i !== -1) {
      const r = known[i]!;
      out.push({
        start_line: y + 1,
        end_line: end + 1,
        change_id: r.change_id!,
        tool: r.tool!,
        actor: r.actor,
        call_id: r.call_id,
        fork: r.fork === undefined ? fork : `${fork}/${r.fork}`,
      });
    }
    y = end + 1;
  }
  return out;
}
