import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, queryFingerprint } from '../../src/search/cursor.js';
import { ToolError } from '../../src/contract/index.js';

describe('search cursors', () => {
  it('round-trips a position, non-ASCII paths included, as URL-safe text', () => {
    const q = queryFingerprint(['needle', 'src', false, true, []]);
    const cursor = encodeCursor(q, { path: 'dossier/été/ünï.ts', line: 12, column: 3 });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, q)).toEqual({ path: 'dossier/été/ünï.ts', line: 12, column: 3 });
  });

  it('refuses cursors of another query and garbage, as INVALID_ARGUMENTS', () => {
    const q = queryFingerprint(['a', '', false, true, []]);
    const other = queryFingerprint(['a', '', false, false, []]);
    expect(other).not.toBe(q);
    const cursor = encodeCursor(q, { path: 'x', line: 1, column: 1 });
    for (const [c, fp] of [
      [cursor, other],
      ['@@@', q],
      [btoa('{"v":2}'), q],
      [cursor.slice(0, -4), q],
    ] as const) {
      let caught: unknown;
      try {
        decodeCursor(c, fp);
      } catch (e) {
        caught = e;
      }
      expect(caught).toBeInstanceOf(ToolError);
      expect((caught as ToolError).code).toBe('INVALID_ARGUMENTS');
    }
  });
});
