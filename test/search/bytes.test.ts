import { describe, expect, it } from 'vitest';
import { countNewlines, indexOfBytes, prepareBytes, utf8CodePoints } from '../../src/search/bytes.js';
import { capLine } from '../../src/search/line-cap.js';

const enc = (s: string) => new TextEncoder().encode(s);

function naiveIndexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('byte search', () => {
  it('agrees with a naive search on random haystacks over a small alphabet', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let round = 0; round < 300; round++) {
      const hay = Uint8Array.from({ length: 1 + Math.floor(rnd() * 200) }, () => 97 + Math.floor(rnd() * 3));
      const needle = Uint8Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => 97 + Math.floor(rnd() * 3));
      const pattern = prepareBytes(needle);
      for (let from = 0; from <= hay.length; from += 1 + Math.floor(rnd() * 7)) {
        expect(indexOfBytes(hay, pattern, from)).toBe(naiveIndexOf(hay, needle, from));
      }
    }
  });

  it('anchors on the rarest byte and still finds matches at both ends', () => {
    const pattern = prepareBytes(enc('the Q'));
    expect(pattern.anchor).toBe(4);
    expect(indexOfBytes(enc('the Q at start'), pattern)).toBe(0);
    expect(indexOfBytes(enc('ends with the Q'), pattern)).toBe(10);
    expect(indexOfBytes(enc('Q the the Q'), pattern)).toBe(6);
    expect(indexOfBytes(enc('Q'), pattern)).toBe(-1);
  });

  it('counts newlines and UTF-8 code points in a range', () => {
    const bytes = enc('a\nb\n😀é\n');
    expect(countNewlines(bytes, 0, bytes.length)).toBe(3);
    expect(countNewlines(bytes, 2, 3)).toBe(0);
    expect(utf8CodePoints(bytes, 4, bytes.length - 1)).toBe(2);
  });

  it('counts newlines four bytes at a time exactly as byte by byte, at any offset and length, in views too', () => {
    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    // newlines, their neighbours in value (9, 11) and bytes with the top bit set, which a word trick could miscount
    const alphabet = [10, 10, 9, 11, 0, 0x8a, 0xff, 0x0a | 0x80, 97];
    const whole = Uint8Array.from({ length: 4099 }, () => alphabet[Math.floor(rnd() * alphabet.length)]!);
    const naive = (hay: Uint8Array, from: number, to: number) => {
      let n = 0;
      for (let i = from; i < Math.min(to, hay.length); i++) if (hay[i] === 10) n++;
      return n;
    };
    for (let round = 0; round < 400; round++) {
      const offset = Math.floor(rnd() * 7);
      const hay = whole.subarray(offset, offset + Math.floor(rnd() * (whole.length - offset)));
      const from = Math.floor(rnd() * (hay.length + 1));
      const to = from + Math.floor(rnd() * (hay.length - from + 8));
      expect(countNewlines(hay, from, to), `offset ${offset}, [${from}, ${to}) of ${hay.length}`).toBe(
        naive(hay, from, to),
      );
    }
    expect(countNewlines(new Uint8Array(1000).fill(10), 1, 999)).toBe(998);
  });

  it('counts a long run of newlines exactly: the per-lane tallies never overflow', () => {
    // each byte lane of the word tally holds at most 255: 64 KiB of newlines is 16,384 words
    const lines = new Uint8Array(1 << 16).fill(10);
    expect(countNewlines(lines, 0, lines.length)).toBe(lines.length);
    expect(countNewlines(lines, 3, lines.length - 5)).toBe(lines.length - 8);
    lines.fill(97, 1000, 2000);
    expect(countNewlines(lines, 0, lines.length)).toBe(lines.length - 1000);
  });
});

describe('capLine', () => {
  it('leaves short lines alone and never splits a surrogate pair', () => {
    expect(capLine('short', 0, 1, 10)).toBe('short');
    const emoji = '😀'.repeat(8);
    expect(capLine(emoji, 0, 1, 8)).toBe(emoji);
    const cut = capLine('😀'.repeat(12), 0, 1, 8);
    expect(cut.startsWith('😀'.repeat(8))).toBe(true);
    expect(cut).toContain('4 more characters');
  });

  it('moves the window to a match that lies past the cap', () => {
    const line = `${'a'.repeat(100)}MATCH${'b'.repeat(100)}`;
    const out = capLine(line, 100, 5, 40);
    expect(out).toContain('MATCH');
    expect(out).toMatch(/^\[… 90 characters before\] a{10}MATCH/);
  });
});
