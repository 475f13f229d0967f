import { describe, expect, it } from 'vitest';
import { foldPunctuation, LineIndex, nearestMatch, seekHeader, seekLines } from '../../src/patch/seek.js';

describe('seekLines', () => {
  it('prefers the tightest tier over an earlier loose match', () => {
    const file = new LineIndex(['  a', 'b', 'a', 'b']);
    expect(seekLines(file, ['a', 'b'], 0)).toEqual({ index: 2, tier: 'exact' });
    expect(seekLines(file, ['a ', 'b'], 0)).toEqual({ index: 2, tier: 'trailing_whitespace' });
    expect(seekLines(file, ['  a', 'b'], 1)).toEqual({ index: 2, tier: 'whitespace' });
  });

  it('folds typographic punctuation only in the last tier', () => {
    const file = new LineIndex(['say \u201Chi\u201D \u2014 it\u2019s\u00A0fine']);
    expect(seekLines(file, ['say "hi" - it\'s fine'], 0)).toEqual({ index: 0, tier: 'unicode' });
    expect(foldPunctuation('a\u2013b\u2026')).toBe('a-b...');
  });

  it('searches only from start, and with eof only at the end', () => {
    const file = new LineIndex(['x', 'y', 'x', 'y']);
    expect(seekLines(file, ['x', 'y'], 1)?.index).toBe(2);
    expect(seekLines(file, ['x'], 0, true)).toBeNull();
    expect(seekLines(file, ['y'], 0, true)?.index).toBe(3);
    expect(seekLines(file, ['x', 'y', 'x', 'y', 'x'], 0)).toBeNull();
  });

  it('finds an @@ line by whole line first, then by a fragment', () => {
    const file = new LineIndex(['function other() {', 'export function build(o) {', 'function build']);
    expect(seekHeader(file, 'function build', 0)).toBe(2);
    expect(seekHeader(file, 'function build(', 0)).toBe(1);
    expect(seekHeader(file, 'missing', 0)).toBe(-1);
  });

  it('names the nearest place and the first differing line', () => {
    const file = new LineIndex(['a', 'b', 'c', 'x', 'b', 'q']);
    expect(nearestMatch(file, ['x', 'b', 'z'])).toEqual({ index: 3, matched: 2, firstDifference: 2 });
    expect(nearestMatch(file, ['zzz'])).toBeNull();
  });
});
