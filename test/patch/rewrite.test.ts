import { describe, expect, it } from 'vitest';
import { parsePatch, type PatchChunk } from '../../src/patch/parse.js';
import { applyChunks, splitWithEols } from '../../src/patch/rewrite.js';
import { ToolError } from '../../src/contract/index.js';

function chunksOf(...body: string[]): PatchChunk[] {
  const [op] = parsePatch(['*** Begin Patch', '*** Update File: f', ...body, '*** End Patch'].join('\n'));
  if (op?.kind !== 'update') throw new Error('not an update');
  return op.chunks;
}

describe('applyChunks', () => {
  it("keeps each line ending as it was and gives new lines their neighbours' ending", () => {
    const text = 'a\r\nb\nc\r\nd';
    expect(applyChunks(text, chunksOf('@@', ' a', '-b', '+B', '+B2', ' c'), 'f').text).toBe('a\r\nB\nB2\nc\r\nd');
    expect(applyChunks(text, chunksOf('@@', ' c', '+c2', ' d'), 'f').text).toBe('a\r\nb\nc\r\nc2\r\nd');
  });

  it('keeps a missing final newline when lines are added or removed at the end', () => {
    expect(applyChunks('a\nb', chunksOf('@@', ' b', '+c', '*** End of File'), 'f').text).toBe('a\nb\nc');
    expect(applyChunks('a\nb', chunksOf('@@', ' a', '-b', '*** End of File'), 'f').text).toBe('a');
    expect(applyChunks('a\nb\n', chunksOf('@@', ' a', '-b'), 'f').text).toBe('a\n');
    expect(applyChunks('', chunksOf('@@', '+first'), 'f').text).toBe('first\n');
  });

  it('keeps context lines as the file has them when the match was loose', () => {
    const r = applyChunks('  x = 1  \ny = 2\n', chunksOf('@@', ' x = 1', '-y = 2', '+y = 3'), 'f');
    expect(r).toEqual({ text: '  x = 1  \ny = 3\n', added_lines: 1, removed_lines: 1, loosest: 'whitespace' });
  });

  it('fails with the chunk, patch line and nearest text', () => {
    let error: unknown;
    try {
      applyChunks('one\ntwo\nthree\n', chunksOf('@@', ' one', '-TWO', '+2'), 'src/f.txt');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    const e = error as ToolError;
    expect(e.code).toBe('PATCH_CONFLICT');
    expect(e.message).toContain("'src/f.txt' chunk 1 (patch line 3)");
    expect(e.hint).toContain('line 2 reads "two" where the patch expects "TWO"');
    expect(e.details).toMatchObject({
      path: 'src/f.txt',
      chunk: 1,
      patch_line: 3,
      nearest: { line: 1, text: 'one\ntwo' },
    });
  });

  it('splits text with the exact terminator of each line', () => {
    expect(splitWithEols('a\r\nb\nc')).toEqual({ lines: ['a', 'b', 'c'], eols: ['\r\n', '\n', ''] });
    expect(splitWithEols('\n')).toEqual({ lines: [''], eols: ['\n'] });
  });
});
