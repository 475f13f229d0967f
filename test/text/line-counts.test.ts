import { diffArrays } from 'diff';
import { describe, expect, it } from 'vitest';
import { countLineChanges } from '../../src/text/line-diff.js';
import { random, randomEdit } from '../support/random-edits.js';

describe('countLineChanges', () => {
  it('counts added and removed lines exactly as a line diff does, over random edits', () => {
    const next = random(7);
    for (let round = 0; round < 300; round++) {
      const alphabet = 2 + Math.floor(next() * 6);
      const [before, after] = randomEdit(next, alphabet, 60);
      let added = 0;
      let removed = 0;
      for (const part of diffArrays(before, after)) {
        if (part.added) added += part.value.length;
        else if (part.removed) removed += part.value.length;
      }
      const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
      expect(countLineChanges(text(before), text(after)), `round ${round}`).toEqual({
        added_lines: added,
        removed_lines: removed,
      });
    }
  });

  it('counts creations, deletions and a rewrite too big to diff in bulk', () => {
    expect(countLineChanges(null, 'a\nb\n')).toEqual({ added_lines: 2, removed_lines: 0 });
    expect(countLineChanges('a\nb\nc', null)).toEqual({ added_lines: 0, removed_lines: 3 });
    const big = (tag: string) => Array.from({ length: 3000 }, (_, i) => `${tag} ${i}\n`).join('');
    expect(countLineChanges(big('old'), big('new'))).toEqual({ added_lines: 3000, removed_lines: 3000 });
  });
});
