import { hasEscapedBytes, nameToBytes } from '../fs/name-bytes.js';
import { wildcardMatcher, type WildPart } from './wildcard.js';

/**
 * The patterns of one `.gitignore` (or `info/exclude`), matched as git matches them on a
 * case-sensitive file system: byte by byte, `*` and `?` never crossing a `/` in a pattern with a
 * slash, `**` only as a whole component, the last matching pattern deciding. Checked against git
 * itself on random trees and patterns (test/search/gitignore-git.test.ts).
 */
export interface GitignoreRules {
  /**
   * What the last pattern matching `path` (relative to the file's folder; a folder when `isDir`)
   * says: true excludes, false re-includes (`!pattern`), null when none matches. The folders above
   * `path` are not looked at: a walk enters no excluded folder, and a file below one whose
   * exclusion a deeper `.gitignore` lifted is judged by its own name, as git judges it.
   */
  verdict(path: string, isDir: boolean): boolean | null;
}

interface Pattern {
  /** null: a pattern git can never match (an unclosed `[`, a trailing backslash) */
  test: ((text: string) => boolean) | null;
  negative: boolean;
  dirOnly: boolean;
  /** no slash but a trailing one: matched against the last component only */
  basename: boolean;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** A string of the name's bytes, one character each: git matches bytes, so `?` is one byte of `é`. */
function byteString(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const bytes = hasEscapedBytes(text) ? nameToBytes(text) : new TextEncoder().encode(text);
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

/** Answers remembered per `.gitignore`, at most (then forgotten at once). */
const SEEN_MOST = 1 << 16;

/** Parse a `.gitignore`'s text. */
export function compileGitignore(text: string): GitignoreRules {
  const patterns: Pattern[] = [];
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  for (const raw of body.split('\n')) {
    const line = trimTrailingSpaces(raw.endsWith('\r') ? raw.slice(0, -1) : raw);
    if (line === '' || line.startsWith('#')) continue;
    const negative = line.startsWith('!');
    let pattern = negative ? line.slice(1) : line;
    const dirOnly = pattern.endsWith('/');
    if (dirOnly) pattern = pattern.slice(0, -1);
    const basename = !pattern.includes('/');
    if (!basename && pattern.startsWith('/')) pattern = pattern.slice(1);
    const parts = partsOf(byteString(pattern), !basename);
    patterns.push({ test: parts && wildcardMatcher(parts, !basename), negative, dirOnly, basename });
  }
  // a walk without a change feed (IndexedDB, OPFS) asks again about every path at each rescan
  const seen = new Map<string, boolean | null>();
  return {
    verdict(path: string, isDir: boolean): boolean | null {
      if (patterns.length === 0) return null;
      const key = isDir ? `${path}/` : path;
      const known = seen.get(key);
      if (known !== undefined) return known;
      const bytes = byteString(path);
      const name = bytes.slice(bytes.lastIndexOf('/') + 1);
      let answer: boolean | null = null;
      for (let i = patterns.length - 1; i >= 0; i--) {
        const p = patterns[i]!;
        if ((p.dirOnly && !isDir) || p.test === null) continue;
        if (p.test(p.basename ? name : bytes)) {
          answer = !p.negative;
          break;
        }
      }
      if (seen.size >= SEEN_MOST) seen.clear();
      seen.set(key, answer);
      return answer;
    },
  };
}

/** Trailing spaces are dropped unless a backslash escapes one. */
function trimTrailingSpaces(line: string): string {
  let spacesFrom = -1;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === ' ') {
      if (spacesFrom === -1) spacesFrom = i;
      continue;
    }
    if (c === '\\') i++;
    spacesFrom = -1;
  }
  return spacesFrom === -1 ? line : line.slice(0, spacesFrom);
}

const POSIX_CLASSES: Record<string, string> = {
  alnum: 'a-zA-Z0-9',
  alpha: 'a-zA-Z',
  blank: ' \\t',
  cntrl: '\\x00-\\x1f\\x7f',
  digit: '0-9',
  graph: '\\x21-\\x7e',
  lower: 'a-z',
  print: '\\x20-\\x7e',
  punct: '!-\\/:-@\\[-`{-~',
  space: ' \\t\\n\\r\\f\\v',
  upper: 'A-Z',
  xdigit: '0-9A-Fa-f',
};

const escapeChar = (c: string) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;

/**
 * The pattern's parts, or null when git can never match it: `*` within a component (anywhere in a
 * basename pattern), `**` as a whole component at the end (anything) or before a slash (`dirs`).
 */
function partsOf(pattern: string, pathname: boolean): WildPart[] | null {
  const any = pathname ? '[^/]' : '[^]';
  // git compares a path pattern's part before its first wildcard as plain text and matches the rest
  // as a pattern of its own, whose start counts as a component's: `a**/**b` matches `aab`
  const literalPart = pathname ? pattern.search(/[*?[\\]/) : -1;
  const parts: WildPart[] = [];
  const literal = (c: string) => parts.push(c === '/' ? { one: escapeChar(c), slash: true } : { one: escapeChar(c) });
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      let end = i;
      while (pattern[end] === '*') end++;
      const start = i === 0 || i === literalPart || pattern[i - 1] === '/';
      const wholeComponent = start && (end === pattern.length || pattern[end] === '/');
      if (pathname && end - i >= 2 && wholeComponent) {
        if (end === pattern.length) parts.push({ rest: true });
        else {
          parts.push({ dirs: true });
          end++;
        }
      } else parts.push({ star: true });
      i = end - 1;
    } else if (c === '?') parts.push({ one: any });
    else if (c === '[') {
      const parsed = bracket(pattern, i, pathname);
      if (parsed === null) return null;
      parts.push({ one: parsed.source });
      i = parsed.end;
    } else if (c === '\\') {
      if (i + 1 >= pattern.length) return null;
      literal(pattern[++i]!);
    } else literal(c);
  }
  return parts;
}

/** A `[...]` from `start`: its regex and the index of its `]`, or null when it is not closed. */
function bracket(pattern: string, start: number, pathname: boolean): { source: string; end: number } | null {
  let i = start + 1;
  const negated = pattern[i] === '!' || pattern[i] === '^';
  if (negated) i++;
  let set = '';
  let first = true;
  for (; i < pattern.length; i++, first = false) {
    let c = pattern[i]!;
    if (c === ']' && !first) {
      const cls = `[${negated ? '^' : ''}${set}${negated && pathname ? '/' : ''}]`;
      if (set === '' && !negated) return { source: '(?!)', end: i };
      return { source: !negated && pathname ? `(?!/)${cls}` : cls, end: i };
    }
    if (c === '[' && pattern[i + 1] === ':') {
      const close = pattern.indexOf(':]', i + 2);
      if (close === -1) return null;
      const named = POSIX_CLASSES[pattern.slice(i + 2, close)];
      if (named === undefined) return null;
      set += named;
      i = close + 1;
      continue;
    }
    if (c === '\\') {
      if (++i >= pattern.length) return null;
      c = pattern[i]!;
    }
    if (pattern[i + 1] === '-' && i + 2 < pattern.length && pattern[i + 2] !== ']') {
      let to = pattern[i + 2]!;
      let skip = 2;
      if (to === '\\') {
        if (i + 3 >= pattern.length) return null;
        to = pattern[i + 3]!;
        skip = 3;
      }
      // a range backwards matches nothing (git compares the byte with both ends)
      if (c <= to) set += `${escapeChar(c)}-${escapeChar(to)}`;
      i += skip;
      continue;
    }
    set += escapeChar(c);
  }
  return null;
}
