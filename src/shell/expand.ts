import type { Word, WordPart } from './ast.js';
import { evalArithmetic } from './arith.js';
import { expandBraces } from './braces.js';
import { GLOB_CHARS, glob } from './glob.js';
import { readWord } from './lex.js';
import type { ExpandHost } from './expand-host.js';
import { paramValue } from './params.js';

export { globPattern, type GlobPattern } from './glob.js';

export type { ExpandHost };

interface Field {
  text: string;
  pattern: string;
  glob: boolean;
  started: boolean;
}

const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

/** One part's value: text, or several words for `"$@"` and `"${a[@]}"`. */
async function partValue(host: ExpandHost, part: WordPart): Promise<string | string[]> {
  if (part.t === 'lit') return part.v;
  if (part.t === 'cmd') return (await host.substitute(part.src)).replace(/\n+$/, '');
  if (part.t === 'procsub') return host.procsub(part.src);
  if (part.t === 'arith') return String(evalArithmetic(await expandString(host, readWord(part.src, true)), host));
  return paramValue(host, part);
}

/** Expand a word to one string: no field splitting, no globbing (assignments, redirect targets). */
export async function expandString(host: ExpandHost, word: Word): Promise<string> {
  let out = '';
  for (const part of word) {
    const v = await partValue(host, part);
    out +=
      typeof v === 'string'
        ? v
        : v.join(part.t === 'var' && (part.name === '*' || part.index === '*') ? ifsJoiner(host) : ' ');
  }
  return out;
}

const ifsJoiner = (host: ExpandHost) => (host.getVar('IFS') ?? ' ').slice(0, 1);

/** Split text on IFS: runs of IFS white space separate, each other IFS character ends a field. */
export function splitFields(value: string, ifs: string | undefined): string[] {
  const chars = ifs ?? ' \t\n';
  if (chars === '') return [value];
  const white = [...chars].filter((c) => ' \t\n'.includes(c)).join('');
  const other = [...chars].filter((c) => !' \t\n'.includes(c)).join('');
  const esc = (s: string) => s.replace(/[\]\\^-]/g, '\\$&');
  const trimmed = white ? value.replace(new RegExp(`^[${esc(white)}]+|[${esc(white)}]+$`, 'g'), '') : value;
  if (trimmed === '') return [];
  const sep = other
    ? new RegExp(`[${esc(white)}]*[${esc(other)}][${esc(white)}]*${white ? `|[${esc(white)}]+` : ''}`)
    : new RegExp(`[${esc(white)}]+`);
  const out = trimmed.split(sep);
  if (other && out.length > 1 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Expand a word to fields: braces, then variables and `$(...)`, splitting of unquoted results, then globs. */
export async function expandWord(host: ExpandHost, word: Word): Promise<string[]> {
  const out: string[] = [];
  for (const w of expandBraces(word)) out.push(...(await expandOne(host, tilde(host, w))));
  return out;
}

/** `~` and `~/...` at the start of an unquoted word: the home folder. */
function tilde(host: ExpandHost, word: Word): Word {
  const first = word[0];
  if (first?.t !== 'lit' || first.q || !/^~(\/|$)/.test(first.v)) return word;
  const home = host.getVar('HOME') ?? '/';
  return [{ t: 'lit', v: home, q: true }, { t: 'lit', v: first.v.slice(1), q: false }, ...word.slice(1)];
}

async function expandOne(host: ExpandHost, word: Word): Promise<string[]> {
  const fields: Field[] = [];
  let cur: Field = { text: '', pattern: '', glob: false, started: false };
  const push = () => {
    if (cur.started) fields.push(cur);
    cur = { text: '', pattern: '', glob: false, started: false };
  };
  const addQuoted = (v: string) => {
    cur.text += v;
    cur.pattern += escapeGlob(v);
    cur.started = true;
  };
  const addSplit = (value: string) => {
    const ifs = host.getVar('IFS');
    // Default IFS: white space at either end separates the value from its neighbours.
    const pieces = ifs === undefined ? value.split(/[ \t\n]+/) : splitFields(value, ifs);
    pieces.forEach((piece, n) => {
      if (n > 0) push();
      if (piece === '') return;
      cur.text += piece;
      cur.pattern += piece;
      cur.started = true;
      if (GLOB_CHARS.test(piece)) cur.glob = true;
    });
  };
  for (const part of word) {
    const value = await partValue(host, part);
    if (Array.isArray(value)) {
      // "$@": one field per element, the first and last joined to their neighbours.
      value.forEach((a, n) => {
        if (n > 0) push();
        if (part.q) addQuoted(a);
        else addSplit(a);
      });
      continue;
    }
    if (part.q) {
      addQuoted(value);
      continue;
    }
    if (part.t === 'lit') {
      cur.text += value;
      cur.pattern += value;
      cur.started = true;
      if (GLOB_CHARS.test(value)) cur.glob = true;
      continue;
    }
    addSplit(value);
  }
  push();
  const out: string[] = [];
  for (const f of fields) {
    if (!f.glob) {
      out.push(f.text);
      continue;
    }
    const matches = await glob(host.fs, host.cwd, f.pattern);
    if (matches.length) out.push(...matches);
    else out.push(f.text);
  }
  return out;
}
