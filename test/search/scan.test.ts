import { describe, expect, it } from 'vitest';
import { buildMatcher } from '../../src/search/matcher.js';
import { scanFile } from '../../src/search/scan.js';

const enc = (s: string) => new TextEncoder().encode(s);
const options = { path: 'f', afterLine: 0, limit: 10, context: 0, maxLineChars: 500 };

describe('scanFile', () => {
  it('answers a file without the literal as one without a match, binary or not, when a search of many files asks', async () => {
    const matcher = await buildMatcher('needle', false, true);
    const binary = enc('no hit here\0\nat all\n');
    // a file named alone must still say it is binary
    expect(scanFile(binary, matcher, options)).toEqual({ skipped: 'binary' });
    expect(scanFile(binary, matcher, { ...options, binaryAsNoMatch: true })).toEqual({ matches: [] });
    // with the literal in it, a binary file is skipped either way, and a text file is searched from the first hit found
    const binaryHit = enc('a needle\0\n');
    expect(scanFile(binaryHit, matcher, { ...options, binaryAsNoMatch: true })).toEqual({ skipped: 'binary' });
    const text = enc('\uFEFFone\ntwo needle\nthree\nneedle again\n');
    const many = scanFile(text, matcher, { ...options, binaryAsNoMatch: true });
    expect(many).toEqual(scanFile(text, matcher, options));
    expect(many).toMatchObject({
      matches: [
        { line: 2, column: 5 },
        { line: 4, column: 1 },
      ],
    });
  });
});
