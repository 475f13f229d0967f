import { describe, expect, it } from 'vitest';
import { adoptLineEndings } from '../../src/text/eol.js';

describe('adoptLineEndings', () => {
  it('leaves LF files and text that carries its own CR alone', () => {
    expect(adoptLineEndings('a\nb\n', 'a\nc\n')).toBe('a\nc\n');
    expect(adoptLineEndings('a\r\nb\r\n', 'x\r\ny\n')).toBe('x\r\ny\n');
    expect(adoptLineEndings('', 'x\n')).toBe('x\n');
  });

  it('gives a CRLF file CRLF throughout', () => {
    expect(adoptLineEndings('a\r\nb\r\n', 'a\nb\nc\n')).toBe('a\r\nb\r\nc\r\n');
    expect(adoptLineEndings('a\r\nb\r\n', 'new\n')).toBe('new\r\n');
    // no line kept (answered without the diff): a mixed file's majority ending, the last line as written
    expect(adoptLineEndings('a\r\nb\nc\r\n', 'x\ny\nz')).toBe('x\r\ny\r\nz');
  });

  it('keeps the presence or absence of a final newline as the new text has it', () => {
    expect(adoptLineEndings('a\r\nb', 'a\nb\nc')).toBe('a\r\nb\r\nc');
    expect(adoptLineEndings('a\r\nb', 'a\nb\n')).toBe('a\r\nb\r\n');
    expect(adoptLineEndings('a\r\nb\r\n', 'a\nb')).toBe('a\r\nb');
  });

  it('keeps each unchanged line of a mixed file as it was; new lines take the majority ending', () => {
    expect(adoptLineEndings('a\r\nb\nc\r\n', 'a\nb\nc\nd\n')).toBe('a\r\nb\nc\r\nd\r\n');
    expect(adoptLineEndings('a\r\nb\nc\nd\r\n', 'a\nX\nc\nd\n')).toBe('a\r\nX\nc\nd\r\n');
    expect(adoptLineEndings('k1\r\nk2\nold\r\nk3\n', 'k1\nk2\nnew\nk3\n')).toBe('k1\r\nk2\nnew\nk3\n');
  });

  it('handles repeated lines and large rewrites without losing any text', () => {
    const previous = 'x\r\nx\ny\r\nx\n';
    const next = 'x\nx\nx\ny\nx\n';
    const out = adoptLineEndings(previous, next);
    expect(out.replace(/\r\n/g, '\n')).toBe(next);
    const big = Array.from({ length: 6000 }, (_, i) => `line ${i}\r\n`).join('');
    const rewritten = Array.from({ length: 6000 }, (_, i) => `other ${i}\n`).join('');
    const result = adoptLineEndings(big, rewritten);
    expect(result).toBe(rewritten.replace(/\n/g, '\r\n'));
  });
});
