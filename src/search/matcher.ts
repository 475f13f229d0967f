import { tool, ToolError, words } from '../contract/index.js';
import { prepareBytes, type BytePattern } from './bytes.js';
import { compileRegex } from './regex.js';

/**
 * What a search looks for. A case-sensitive literal is searched as UTF-8 bytes, so files without
 * a match are never decoded; anything else is a RegExp run on decoded lines.
 */
export interface Matcher {
  /** the literal's UTF-8 bytes, when byte search applies */
  bytes: BytePattern | null;
  /** finds the first match in one line: its UTF-16 index and length, or null */
  inLine(line: string): { index: number; length: number } | null;
  /** length of the pattern in code points, for a byte match */
  literalChars: number;
}

/** Build the matcher for a query; an invalid regex is INVALID_ARGUMENTS naming the problem. */
export async function buildMatcher(pattern: string, isRegex: boolean, caseSensitive: boolean): Promise<Matcher> {
  if (!isRegex && /[\r\n]/.test(pattern)) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      words`the pattern spans lines, but ${tool('search_files')} matches within one line`,
      {
        hint: 'Search for one line of the text (the most distinctive one).',
        problems: [{ path: '/pattern', message: 'must not contain a line break' }],
      },
    );
  }
  if (!isRegex && caseSensitive) {
    return {
      bytes: prepareBytes(new TextEncoder().encode(pattern)),
      literalChars: [...pattern].length,
      inLine: (line) => {
        const index = line.indexOf(pattern);
        return index === -1 ? null : { index, length: pattern.length };
      },
    };
  }
  if (isRegex) return { bytes: null, literalChars: 0, inLine: await compileRegex(pattern, caseSensitive) };
  // An escaped literal cannot backtrack, so the built-in engine is safe here, and faster.
  const re = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'iu');
  return {
    bytes: null,
    literalChars: 0,
    inLine: (line) => {
      const m = re.exec(line);
      return m ? { index: m.index, length: m[0].length } : null;
    },
  };
}
