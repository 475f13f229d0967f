import { arg, PASSAGES, tool, ToolError, words } from '../contract/index.js';

/** Where a page ended: the last match returned. */
export interface CursorPosition {
  path: string;
  line: number;
  column: number;
}

interface CursorBody {
  v: 1;
  q: string;
  p: string;
  l: number;
  c: number;
}

/**
 * A fingerprint of everything that decides which matches a query has, so a cursor from one
 * query cannot silently page through another. cyrb53: tiny, synchronous, stable everywhere.
 */
export function queryFingerprint(parts: unknown[]): string {
  const text = JSON.stringify(parts);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/** A self-contained cursor (base64url JSON): any later process can continue from it. */
export function encodeCursor(fingerprint: string, at: CursorPosition): string {
  const body: CursorBody = { v: 1, q: fingerprint, p: at.path, l: at.line, c: at.column };
  const bytes = new TextEncoder().encode(JSON.stringify(body));
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Read a cursor back; one that is malformed or from another query is INVALID_ARGUMENTS. */
export function decodeCursor(cursor: string, fingerprint: string): CursorPosition {
  let body: Partial<CursorBody> | null = null;
  try {
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as Partial<CursorBody>;
  } catch {
    body = null;
  }
  if (
    !body ||
    body.v !== 1 ||
    typeof body.p !== 'string' ||
    !Number.isInteger(body.l) ||
    !Number.isInteger(body.c) ||
    typeof body.q !== 'string'
  ) {
    throw new ToolError('INVALID_ARGUMENTS', words`the cursor is not one ${tool('search_files')} returned`, {
      hint: words`Pass ${arg('next_cursor')} exactly as a previous ${tool('search_files')} result gave it, or omit ${arg('cursor')} to start over.`,
      problems: [{ path: '/cursor', message: 'is not a valid cursor' }],
    });
  }
  if (body.q !== fingerprint) {
    throw new ToolError('INVALID_ARGUMENTS', words`the cursor belongs to a different search ${PASSAGES.searchArgs}`, {
      hint: 'Repeat the search with the same arguments as the call that returned the cursor, or omit cursor to start over.',
      problems: [{ path: '/cursor', message: 'belongs to a different query' }],
    });
  }
  return { path: body.p, line: body.l!, column: body.c! };
}
