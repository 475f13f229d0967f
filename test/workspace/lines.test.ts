import { describe, expect, it } from 'vitest';
import {
  countLines,
  detectEol,
  dominantEol,
  LfView,
  lineAt,
  splitKeepingEols,
  splitLines,
  toLf,
} from '../../src/text/lines.js';

describe('lines', () => {
  it('names the line-ending style', () => {
    expect(detectEol('a\nb\n')).toBe('lf');
    expect(detectEol('a\r\nb\r\n')).toBe('crlf');
    expect(detectEol('a\r\nb\n')).toBe('mixed');
    expect(detectEol('single')).toBe('none');
    expect(detectEol('')).toBe('none');
    expect(detectEol('\n')).toBe('lf');
    expect(detectEol('a\rb')).toBe('cr');
    expect(detectEol('one\r\ntwo\rthree\nfour\r\n')).toBe('mixed');
  });

  it('splits and counts lines: a final newline does not start another line', () => {
    expect(splitLines('')).toEqual([]);
    expect(splitLines('a')).toEqual(['a']);
    expect(splitLines('a\n')).toEqual(['a']);
    expect(splitLines('a\r\nb')).toEqual(['a', 'b']);
    expect(splitLines('a\n\n')).toEqual(['a', '']);
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\n')).toBe(1);
    expect(countLines('a\nb')).toBe(2);
    expect(countLines('\n\n')).toBe(2);
  });

  it('splits keeping each line its own ending, exactly as the look-behind split it replaced', () => {
    const byPattern = (text: string) => (text === '' ? [] : text.split(/(?<=\r\n|\r(?!\n)|\n)/));
    const cases = ['', 'a', '\n', '\r', '\r\n', 'a\nb', 'a\r\nb\r\n', 'a\rb\r', '\r\r\n\n\r', 'x\n\ny', 'é\r\n€\n'];
    // every string of up to six characters over a, \r and \n: each way an ending can meet another
    const alphabet = ['a', '\r', '\n'];
    let layer = [''];
    for (let size = 1; size <= 6; size++) {
      layer = layer.flatMap((s) => alphabet.map((c) => s + c));
      cases.push(...layer);
    }
    for (const text of cases) {
      expect(splitKeepingEols(text), JSON.stringify(text)).toEqual(byPattern(text));
      expect(splitKeepingEols(text).join('')).toBe(text);
    }
  });

  it('finds the line of an offset', () => {
    const text = 'ab\ncd\n\nef';
    expect(lineAt(text, 0)).toBe(1);
    expect(lineAt(text, 2)).toBe(1);
    expect(lineAt(text, 3)).toBe(2);
    expect(lineAt(text, 6)).toBe(3);
    expect(lineAt(text, 7)).toBe(4);
  });

  it('folds CRLF and a lone CR, since both end a line', () => {
    expect(toLf('a\r\nb\rc\n')).toBe('a\nb\nc\n');
    const view = new LfView('a\r\nb\rc\r\n');
    expect(view.text).toBe('a\nb\nc\n');
    expect(view.toOriginal(view.text.indexOf('c'))).toBe(5);
    expect(splitLines('one\r\ntwo\rthree\nfour\r\n')).toEqual(['one', 'two', 'three', 'four']);
    expect(countLines('one\r\ntwo\rthree\nfour\r\n')).toBe(4);
    expect(countLines('a\rb')).toBe(2);
    expect(lineAt('a\rb\r\nc', 2)).toBe(2);
    expect(lineAt('a\rb\r\nc', 4)).toBe(2);
    expect(lineAt('a\rb\r\nc', 5)).toBe(3);
    expect(dominantEol('a\rb\rc\n')).toBe('\r');
  });

  it('splices a lone-CR line with its own ending, and each new line takes the ending of the line it replaces', () => {
    const view = new LfView('one\r\ntwo\rthree\nfour\r\n');
    const at = (s: string) => view.text.indexOf(s);
    expect(view.splice([{ start: at('two'), end: at('two') + 3, replacement: 'TWO' }], '\n')).toBe(
      'one\r\nTWO\rthree\nfour\r\n',
    );
    expect(view.splice([{ start: at('one'), end: at('four'), replacement: '1\n2\n3\n' }], '\n')).toBe(
      '1\r\n2\r3\nfour\r\n',
    );
  });

  it('maps folded offsets back to the original', () => {
    const view = new LfView('ab\r\ncd\r\nef');
    expect(view.text).toBe('ab\ncd\nef');
    expect(view.toOriginal(0)).toBe(0);
    expect(view.toOriginal(2)).toBe(2);
    expect(view.toOriginal(3)).toBe(4);
    expect(view.toOriginal(6)).toBe(8);
    expect(view.toOriginal(8)).toBe(10);
  });

  it('splices so that every byte outside the ranges stays, and new lines take the local ending', () => {
    const original = 'a\r\nb\nc\r\nd';
    const view = new LfView(original);
    const at = (s: string) => view.text.indexOf(s);
    expect(view.splice([{ start: at('c'), end: at('c') + 1, replacement: 'C' }], '\n')).toBe('a\r\nb\nC\r\nd');
    expect(view.splice([{ start: at('b'), end: at('b') + 1, replacement: 'B' }], '\r\n')).toBe('a\r\nB\nc\r\nd');
    // a range across a CRLF gives the new lines CRLF; one across a LF gives them LF
    expect(view.splice([{ start: at('a'), end: at('b') + 1, replacement: 'x\ny\nz' }], '\n')).toBe(
      'x\r\ny\r\nz\nc\r\nd',
    );
    expect(view.splice([{ start: at('b'), end: at('c') + 1, replacement: 'x\ny' }], '\r\n')).toBe('a\r\nx\ny\r\nd');
    // a range with no newline uses the fallback
    expect(view.splice([{ start: at('d'), end: at('d') + 1, replacement: 'd1\nd2' }], '\r\n')).toBe(
      'a\r\nb\nc\r\nd1\r\nd2',
    );
    // several ranges at once, in order
    expect(
      view.splice(
        [
          { start: at('a'), end: at('a') + 1, replacement: 'A' },
          { start: at('d'), end: at('d') + 1, replacement: 'D' },
        ],
        '\n',
      ),
    ).toBe('A\r\nb\nc\r\nD');
    // a range ending just before a CRLF keeps it
    const crlf = new LfView('x\r\ny\r\n');
    expect(crlf.splice([{ start: 0, end: 1, replacement: 'X' }], '\r\n')).toBe('X\r\ny\r\n');
    expect(crlf.splice([{ start: 1, end: 3, replacement: '\nY' }], '\n')).toBe('x\r\nY\r\n');
  });

  it('picks the ending new lines get: CRLF only when it is the majority', () => {
    expect(dominantEol('a\r\nb\r\nc\n')).toBe('\r\n');
    expect(dominantEol('a\r\nb\n')).toBe('\n');
    expect(dominantEol('none')).toBe('\n');
  });
});
