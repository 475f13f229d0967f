import { describe, expect, it } from 'vitest';
import { sliceLineRanges, splitKeepingEols } from '../../src/text/lines.js';

function random(seed: number) {
  return () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

describe('sliceLineRanges', () => {
  it('gives the lines a split would, for every kind of line ending and ranges past the end', () => {
    const next = random(11);
    const ends = ['\n', '\r\n', '\r'];
    for (let round = 0; round < 400; round++) {
      const mixed = next() < 0.5;
      let text = '';
      const n = Math.floor(next() * 30);
      for (let i = 0; i < n; i++) text += `l${i}${mixed ? ends[Math.floor(next() * 3)] : '\n'}`;
      if (next() < 0.3) text += 'tail';
      const lines = splitKeepingEols(text);
      const ranges: Array<[number, number]> = [];
      for (let at = 0; at < lines.length + 3; ) {
        at += Math.floor(next() * 4);
        const count = Math.floor(next() * 4);
        ranges.push([at, count]);
        at += count;
      }
      const want = ranges.map(([s, c]) => lines.slice(s, s + c).join(''));
      expect(sliceLineRanges(text, ranges), `round ${round}`).toEqual(want);
    }
  });
});
