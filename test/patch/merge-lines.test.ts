import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeLines } from '../../src/patch/merge/merge-lines.js';

// Realistic edit pairs: [name, base, ours, theirs]. Each is merged by Sandpit and by real
// `git merge-file`, and the two must agree on clean-or-conflict and, when clean, on every byte.
const src =
  'import a from "a";\nimport b from "b";\n\nfunction f() {\n  return 1;\n}\n\nfunction g() {\n  return 2;\n}\n\nexport { f, g };\n';
const CASES: Array<[string, string, string, string]> = [
  ['different functions', src, src.replace('return 1', 'return 10'), src.replace('return 2', 'return 20')],
  ['adjacent lines', 'a\nb\nc\nd\n', 'a\nB\nc\nd\n', 'a\nb\nC\nd\n'],
  ['same line, different text', 'a\nb\nc\n', 'a\nX\nc\n', 'a\nY\nc\n'],
  ['same line, same text', 'a\nb\nc\n', 'a\nX\nc\n', 'a\nX\nc\n'],
  ['both add at end, different', 'a\nb\n', 'a\nb\nours\n', 'a\nb\ntheirs\n'],
  ['both add at end, same', 'a\nb\n', 'a\nb\nsame\n', 'a\nb\nsame\n'],
  ['delete vs edit of the same line', 'a\nb\nc\n', 'a\nc\n', 'a\nB\nc\n'],
  ['delete vs edit far apart', 'a\nb\nc\nd\ne\nf\n', 'b\nc\nd\ne\nf\n', 'a\nb\nc\nd\ne\nF\n'],
  ['CRLF on both sides', 'a\r\nb\r\nc\r\nd\r\ne\r\n', 'A\r\nb\r\nc\r\nd\r\ne\r\n', 'a\r\nb\r\nc\r\nd\r\nE\r\n'],
  ['CRLF file, one side to LF', 'a\r\nb\r\nc\r\n', 'a\nb\nc\n', 'a\r\nb\r\nc\r\n'],
  ['no final newline, edit elsewhere', 'a\nb\nc\nd\nlast', 'A\nb\nc\nd\nlast', 'a\nb\nc\nd\nlast'],
  ['no final newline, both append', 'a\nb', 'a\nb\nc', 'a\nb\nd'],
  ['no final newline, one adds it', 'a\nb\nc\nd\ne', 'A\nb\nc\nd\ne', 'a\nb\nc\nd\ne\n'],
  ['insert at start and end', 'a\nb\nc\n', 'top\na\nb\nc\n', 'a\nb\nc\nbottom\n'],
  ['insert at same place', 'a\nb\n', 'a\nX\nb\n', 'a\nY\nb\n'],
  ['one side empties the file', 'a\nb\n', '', 'a\nb\n'],
  ['one side empties, other edits', 'a\nb\n', '', 'a\nB\n'],
  ['empty base, both add different', '', 'x\n', 'y\n'],
  ['empty base, one adds', '', 'x\n', ''],
  ['edits two lines apart', 'a\nb\nc\nd\ne\n', 'A\nb\nc\nd\ne\n', 'a\nb\nC\nd\ne\n'],
  ['insert next to an edit', 'a\nb\nc\n', 'a\nB\nc\n', 'a\nb\nnew\nc\n'],
  [
    'block moved by ours, line edited by theirs',
    'one\ntwo\nthree\nfour\nfive\nsix\n',
    'one\ntwo\nthree\nfour\nfive\nsix\nseven\n',
    'ONE\ntwo\nthree\nfour\nfive\nsix\n',
  ],
  ['unicode lines', 'α\nβ\nγ\nδ\n', 'α\nβ2\nγ\nδ\n', 'α\nβ\nγ\nδ4\n'],
  ['duplicate lines', 'x\nx\nx\nx\n', 'x\nx\ny\nx\nx\n', 'x\nx\nx\nx\n'],
  ['whole rewrite vs small edit', 'a\nb\nc\n', 'p\nq\nr\n', 'a\nb\nC\n'],
];

const dir = mkdtempSync(join(tmpdir(), 'merge-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const seen = new Set<boolean>();

function gitMergeFile(base: string, ours: string, theirs: string): { clean: boolean; out: Buffer } {
  writeFileSync(join(dir, 'base'), base);
  writeFileSync(join(dir, 'ours'), ours);
  writeFileSync(join(dir, 'theirs'), theirs);
  const run = spawnSync('git', ['merge-file', '-p', join(dir, 'ours'), join(dir, 'base'), join(dir, 'theirs')]);
  if (run.status === null || run.status < 0) throw new Error(`git merge-file failed: ${run.stderr}`);
  seen.add(run.status === 0);
  return { clean: run.status === 0, out: run.stdout };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('mergeLines against git merge-file', () => {
  it.each(CASES)('%s', (_name, base, ours, theirs) => {
    const git = gitMergeFile(base, ours, theirs);
    const ours3 = mergeLines(bytes(base), bytes(ours), bytes(theirs));
    expect(ours3.clean).toBe(git.clean);
    if (ours3.clean) expect(Buffer.from(ours3.bytes).equals(git.out)).toBe(true);
    // merging is symmetric in what conflicts
    expect(mergeLines(bytes(base), bytes(theirs), bytes(ours)).clean).toBe(git.clean);
  });

  it('keeps a conflict region with the base and both sides', () => {
    const result = mergeLines(bytes('a\nb\nc\n'), bytes('a\nX\nc\n'), bytes('a\nY\nc\n'));
    expect(result).toEqual({
      clean: false,
      conflicts: [{ base_start_line: 2, base_line_count: 1, base: 'b\n', ours: 'X\n', theirs: 'Y\n' }],
    });
  });

  it('has both kinds of outcome in its corpus', () => {
    // runs after the cases above, which noted git's verdicts
    expect(seen).toEqual(new Set([true, false]));
  });
});
