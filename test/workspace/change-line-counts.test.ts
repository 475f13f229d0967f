import { describe, expect, it } from 'vitest';
import { countLineChanges } from '../../src/text/line-diff.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { random, randomEdit } from '../support/random-edits.js';

describe('the change log counts lines as countLineChanges does', () => {
  it('over random edits, with and without a final newline or CRLF endings, and past the bulk limit', () => {
    const next = random(5);
    const log = new ChangeLog();
    const pairs: Array<[string, string]> = [];
    for (let round = 0; round < 300; round++) {
      const alphabet = 2 + Math.floor(next() * 5);
      const eol = next() < 0.2 ? '\r\n' : '\n';
      const [before, after] = randomEdit(next, alphabet, 50);
      const text = (lines: string[], final: boolean) =>
        lines.map((l, i) => (i < lines.length - 1 || final ? `${l}${eol}` : l)).join('');
      pairs.push([text(before, next() < 0.8), text(after, next() < 0.8)]);
    }
    const big = (tag: string) => Array.from({ length: 1500 }, (_, i) => `${tag} ${i}\n`).join('');
    pairs.push([big('old'), big('new')], ['', 'a\nb\n'], ['a\nb\n', ''], ['x\n', 'x\n']);
    for (const [before, after] of pairs) {
      const summary = log.record('write_file', [{ path: 'f.txt', before, after }]);
      const { added_lines, removed_lines } = summary.files[0]!;
      expect({ added_lines, removed_lines }, JSON.stringify([before, after])).toEqual(countLineChanges(before, after));
    }
  });
});
