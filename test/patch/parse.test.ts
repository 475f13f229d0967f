import { describe, expect, it } from 'vitest';
import { parsePatch, type PatchOp } from '../../src/patch/parse.js';
import { ToolError } from '../../src/contract/index.js';

const wrap = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

function parseFailure(patch: string): ToolError {
  try {
    parsePatch(patch);
  } catch (error) {
    if (error instanceof ToolError) return error;
    throw error;
  }
  throw new Error('parsed without error');
}

/** The same operations found `by` lines further down the text. */
function shifted(ops: PatchOp[], by: number): PatchOp[] {
  return ops.map((op) =>
    op.kind === 'update'
      ? { ...op, patchLine: op.patchLine + by, chunks: op.chunks.map((c) => ({ ...c, patchLine: c.patchLine + by })) }
      : { ...op, patchLine: op.patchLine + by },
  );
}

describe('parsePatch', () => {
  it('reads every header into operations with their patch lines', () => {
    const ops = parsePatch(
      wrap(
        '*** Add File: a.txt',
        '+x',
        '+',
        '*** Delete File: b.txt',
        '*** Update File: c.txt',
        '*** Move to: d/c.txt',
        '@@ class C',
        '@@     def f(self):',
        ' ctx',
        '-old',
        '+new',
        '*** End of File',
      ),
    );
    expect(ops).toEqual([
      { kind: 'add', path: 'a.txt', lines: ['x', ''], patchLine: 2 },
      { kind: 'delete', path: 'b.txt', patchLine: 5 },
      {
        kind: 'update',
        path: 'c.txt',
        moveTo: 'd/c.txt',
        patchLine: 6,
        chunks: [
          {
            headers: ['class C', '    def f(self):'],
            eof: true,
            patchLine: 8,
            lines: [
              { kind: ' ', text: 'ctx' },
              { kind: '-', text: 'old' },
              { kind: '+', text: 'new' },
            ],
          },
        ],
      },
    ]);
  });

  it('splits chunks at each @@ and drops unified-diff ranges from the header', () => {
    const [op] = parsePatch(
      wrap('*** Update File: f', '@@ -1,2 +1,2 @@ fn main', '-a', '+b', '@@ -9 +9 @@', '-c', '+d'),
    );
    expect(op!.kind === 'update' && op!.chunks.map((c) => c.headers)).toEqual([['fn main'], []]);
  });

  it('is lenient with CRLF, heredocs, fences and blank edges', () => {
    const plain = parsePatch(wrap('*** Update File: f', '-a', '+b'));
    expect(parsePatch(wrap('*** Update File: f', '-a', '+b').replace(/\n/g, '\r\n'))).toEqual(plain);
    expect(parsePatch(`cat <<"PATCH" | apply_patch\n${wrap('*** Update File: f', '-a', '+b')}\nPATCH\n`)).toEqual(
      shifted(plain, 1),
    );
    expect(parsePatch(`\n\n\`\`\`\n${wrap('*** Update File: f', '-a', '+b')}\n\`\`\`\n\n`)).toEqual(shifted(plain, 3));
  });

  it('treats an empty line inside a chunk as empty context, but not blank lines before a header', () => {
    const [op] = parsePatch(wrap('*** Update File: f', '@@', ' a', '', '-b', '', '', '*** Delete File: g'));
    expect(op!.kind === 'update' && op!.chunks[0]!.lines).toEqual([
      { kind: ' ', text: 'a' },
      { kind: ' ', text: '' },
      { kind: '-', text: 'b' },
    ]);
  });

  it('reports each parse error with its patch line and the valid headers', () => {
    const cases: Array<[string, number, string]> = [
      ['', 1, "must start with '*** Begin Patch'"],
      ['*** Begin Patch\n*** Add File: a\n+a', 3, "must end with '*** End Patch'"],
      [wrap(), 2, 'holds no file operations'],
      [wrap('*** Copy File: a'), 2, 'not a valid file header'],
      [wrap('*** Add File:'), 2, 'needs a path'],
      [wrap('*** Update File: a'), 2, 'has no chunks'],
      [wrap('*** Update File: a', '@@', '*** Delete File: b'), 3, 'has no lines'],
      [wrap('*** Update File: a', '-x', 'oops'), 4, 'not a chunk line'],
      [wrap('*** Update File: a', '-x', '*** End of File', '-y'), 5, "new chunk must start with '@@'"],
      [wrap('*** Move to: b'), 2, 'must come right after'],
      [wrap('*** End of File'), 2, 'must end a chunk'],
      [wrap('*** Add File: a', '+1', 'two'), 4, "every line starts with '+'"],
    ];
    for (const [patch, line, words] of cases) {
      const error = parseFailure(patch);
      expect(error.code).toBe('PATCH_PARSE_ERROR');
      expect(error.message).toContain(`patch line ${line}:`);
      expect(error.message).toContain(words);
      expect(error.details).toEqual({ patch_line: line });
      expect(error.hint).toContain("'*** Update File: <path>'");
    }
  });
});
