import { wildcardMatcher, type WildPart } from '../search/wildcard.js';
import type { ShellFs } from './overlay.js';

export const GLOB_CHARS = /[*?[]/;

/** A compiled glob pattern: whether a whole text matches it. */
export interface GlobPattern {
  test(text: string): boolean;
}

/**
 * One glob pattern (`*`, `?`, `[...]`, backslash escapes); with `segment`, no wildcard matches a
 * `/`. Matched without backtracking (see wildcardMatcher): a pattern of many stars against a long
 * name held the shell for minutes.
 */
export function globPattern(pattern: string, segment = false, ignoreCase = false): GlobPattern {
  const parts: WildPart[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) parts.push(literal(pattern[++i]!));
    else if (c === '*') {
      if (!('star' in (parts[parts.length - 1] ?? {}))) parts.push({ star: true });
    } else if (c === '?') parts.push({ one: segment ? '[^/]' : '[^]' });
    else if (c === '[') {
      let end = i + 2;
      while (end < pattern.length && pattern[end] !== ']') {
        if (pattern.startsWith('[:', end) && pattern.indexOf(':]', end + 2) > 0)
          end = pattern.indexOf(':]', end + 2) + 2;
        else end++;
      }
      if (end >= pattern.length) {
        parts.push(literal('['));
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      body = body.replace(/\\/g, '\\\\').replace(/\[:([a-z]+):\]/g, (m, name: string) => CLASSES[name] ?? m);
      parts.push({ one: `[${body}]` });
      i = end;
    } else parts.push(literal(c));
  }
  const test = wildcardMatcher(parts, segment, ignoreCase ? 'i' : '');
  return { test };
}

function literal(c: string): WildPart {
  return { one: /[.*?+^${}()|[\]\\/]/.test(c) ? `\\${c}` : c, ...(c === '/' ? { slash: true } : {}) };
}

const CLASSES: Record<string, string> = {
  alpha: 'A-Za-z',
  digit: '0-9',
  alnum: 'A-Za-z0-9',
  upper: 'A-Z',
  lower: 'a-z',
  space: '\\s',
  xdigit: '0-9A-Fa-f',
  punct: '!-\\/:-@\\[-`{-~',
};

/** Paths matching a glob pattern, sorted bytewise; dot files only when the segment starts with `.`. */
export async function glob(fs: ShellFs, cwd: string, pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const dirsOnly = pattern.endsWith('/');
  const segments = pattern.split('/').filter((s) => s !== '');
  let found: string[] = [absolute ? '/' : ''];
  for (const [n, seg] of segments.entries()) {
    const last = n === segments.length - 1 && !dirsOnly;
    const next: string[] = [];
    for (const base of found) {
      const dir = base === '' ? cwd : base.startsWith('/') ? base : `${cwd === '/' ? '' : cwd}/${base}`;
      const join = (name: string) => (base === '' ? name : base === '/' ? `/${name}` : `${base}/${name}`);
      if (!GLOB_CHARS.test(seg)) {
        const name = seg.replace(/\\(.)/g, '$1');
        const s = await fs.stat(`${dir === '/' ? '' : dir}/${name}`).catch(() => null);
        if (s && (last || s.type === 'dir')) next.push(join(name));
        continue;
      }
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      const re = globPattern(seg, true);
      for (const name of names) {
        if (name.startsWith('.') && !seg.startsWith('.')) continue;
        if (!re.test(name)) continue;
        if (!last && (await fs.stat(`${dir === '/' ? '' : dir}/${name}`).catch(() => null))?.type !== 'dir') continue;
        next.push(join(name));
      }
    }
    found = next;
  }
  return found
    .filter((p) => p !== '' && p !== '/')
    .map((p) => (dirsOnly ? `${p}/` : p))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
