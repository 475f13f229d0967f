import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { changedRegions, type LineRegion } from '../../src/workspace/review/line-regions.js';

/** The regions as the `diff` package's diffArrays gives them (what changedRegions used before it walked the graph itself). */
function viaDiffArrays(a: string[], b: string[]): LineRegion[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) endA--, endB--;
  if (start === endA && start === endB) return [];
  if (start === endA || start === endB)
    return [{ oldStart: start, oldCount: endA - start, newStart: start, newCount: endB - start }];
  const regions: LineRegion[] = [];
  let x = start;
  let y = start;
  let open: LineRegion | null = null;
  for (const part of diffArrays(a.slice(start, endA), b.slice(start, endB))) {
    const count = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      if (open) regions.push(open);
      open = null;
      x += count;
      y += count;
      continue;
    }
    open ??= { oldStart: x, oldCount: 0, newStart: y, newCount: 0 };
    if (part.removed) (open.oldCount += count), (x += count);
    else (open.newCount += count), (y += count);
  }
  if (open) regions.push(open);
  return regions;
}

function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('changedRegions', () => {
  it('gives exactly the regions diffArrays gives, where several shortest edits tie and where none do', () => {
    const random = seeded(38);
    const int = (n: number) => Math.floor(random() * n);
    for (let round = 0; round < 3000; round++) {
      // few distinct lines make many equally short edit paths: the choice between them must match
      const alphabet = 1 + int(round % 3 === 0 ? 3 : 12);
      const line = () => `l${int(alphabet)}\n`;
      const a = Array.from({ length: int(40) }, line);
      const b = a.slice();
      for (let edits = int(8); edits > 0; edits--) {
        const at = int(b.length + 1);
        const kind = int(3);
        if (kind === 0) b.splice(at, 0, ...Array.from({ length: 1 + int(3) }, line));
        else if (kind === 1) b.splice(at, 1 + int(3));
        else b.splice(at, 1, line());
      }
      const other = round % 5 === 0 ? Array.from({ length: int(40) }, line) : b;
      expect(changedRegions(a, other), JSON.stringify([a, other])).toEqual(viaDiffArrays(a, other));
    }
  });

  it('finds the edited lines of a long file with spread-out edits', () => {
    const a = Array.from({ length: 400 }, (_, i) => `line ${i}\n`);
    const b = a.map((l, i) => (i % 37 === 5 ? `changed ${i}\n` : l));
    b.splice(200, 0, 'added\n');
    expect(changedRegions(a, b)).toEqual(viaDiffArrays(a, b));
    expect(changedRegions(a, b).length).toBe(12);
  });
});
