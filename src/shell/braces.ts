import type { Word } from './ast.js';

/** The alternatives of a `{...}` body: `a,b,c`, `1..5`, `a..e`, `1..10..2`; null when it is not a brace expression. */
function alternatives(body: string): string[] | null {
  const seq = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])(?:\.\.(-?\d+))?$/.exec(body);
  if (seq) {
    const [, a, b, stepText] = seq as unknown as [string, string, string, string | undefined];
    const numeric = /\d/.test(a);
    if (numeric !== /\d/.test(b)) return null;
    const from = numeric ? Number(a) : a.charCodeAt(0);
    const to = numeric ? Number(b) : b.charCodeAt(0);
    const step = Math.abs(Number(stepText ?? 1)) || 1;
    const width = numeric && (/^-?0\d/.test(a) || /^-?0\d/.test(b)) ? Math.max(a.length, b.length) : 0;
    const out: string[] = [];
    for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) {
      out.push(
        numeric
          ? v < 0
            ? `-${String(-v).padStart(width - 1, '0')}`
            : String(v).padStart(width, '0')
          : String.fromCharCode(v),
      );
      if (out.length > 100_000) break;
    }
    return out;
  }
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}') depth--;
    else if (c === ',' && depth === 0) {
      items.push(body.slice(start, i));
      start = i + 1;
    }
  }
  if (items.length === 0) return null;
  items.push(body.slice(start));
  return items;
}

/** The first `{...}` in `text` that is a brace expression: its start, end and alternatives. */
function findBrace(text: string): { start: number; end: number; alts: string[] } | null {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] !== '{' || text[i + 1] === '}') continue;
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      if (text[j] === '\\') j++;
      else if (text[j] === '{') depth++;
      else if (text[j] === '}' && --depth === 0) {
        const alts = alternatives(text.slice(i + 1, j));
        if (alts) return { start: i, end: j + 1, alts };
        break;
      }
    }
  }
  return null;
}

/**
 * Brace expansion, before every other expansion: `a{b,c}d` is `abd acd`, `{1..3}` is `1 2 3`.
 * Only braces inside one unquoted piece of the word are read, which is how agents write them.
 */
export function expandBraces(word: Word): Word[] {
  for (const [n, part] of word.entries()) {
    if (part.t !== 'lit' || part.q || !part.v.includes('{')) continue;
    const hit = findBrace(part.v);
    if (!hit) continue;
    const before = word.slice(0, n);
    const after = word.slice(n + 1);
    return hit.alts.flatMap((alt) =>
      expandBraces([
        ...before,
        { t: 'lit', v: part.v.slice(0, hit.start) + alt + part.v.slice(hit.end), q: false },
        ...after,
      ]),
    );
  }
  return [word];
}
