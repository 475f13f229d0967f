import type { Word, WordPart } from './ast.js';
import { evalArithmetic } from './arith.js';
import { readWord } from './lex.js';
import type { ShellFs } from './overlay.js';

/** What expansion needs from the running shell. */
export interface ExpandHost {
  fs: ShellFs;
  cwd: string;
  getVar(name: string): string | undefined;
  setVar(name: string, value: string): void;
  /** positional parameters, $1 onward */
  args: string[];
  /** run `$(...)` and give its stdout */
  substitute(src: string): Promise<string>;
}

interface Field {
  text: string;
  pattern: string;
  glob: boolean;
  started: boolean;
}

const GLOB_CHARS = /[*?[]/;
const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

async function partValue(host: ExpandHost, part: WordPart): Promise<string> {
  if (part.t === 'lit') return part.v;
  if (part.t === 'cmd') return (await host.substitute(part.src)).replace(/\n+$/, '');
  if (part.t === 'arith') return String(evalArithmetic(await expandString(host, readWord(part.src, true)), host));
  const raw = part.name === '@' || part.name === '*' ? host.args.join(' ') : host.getVar(part.name);
  if (part.op === '#len') return String((raw ?? '').length);
  if (!part.op) return raw ?? '';
  const arg = () => expandString(host, part.arg ?? []);
  switch (part.op) {
    case ':-':
      return raw ? raw : arg();
    case '-':
      return raw !== undefined ? raw : arg();
    case ':=':
      if (!raw) host.setVar(part.name, await arg());
      return host.getVar(part.name) ?? '';
    case '=':
      if (raw === undefined) host.setVar(part.name, await arg());
      return host.getVar(part.name) ?? '';
    case ':+':
      return raw ? arg() : '';
    case '+':
      return raw !== undefined ? arg() : '';
    default:
      return trimAffix(raw ?? '', part.op, await arg());
  }
}

/** ${x#p} ${x##p} ${x%p} ${x%%p}: remove the shortest or longest prefix or suffix matching a glob. */
function trimAffix(value: string, op: string, pattern: string): string {
  const re = globRegExp(pattern);
  const lengths = [...Array(value.length + 1).keys()];
  const order = op === '##' || op === '%%' ? lengths.reverse() : lengths;
  for (const n of order) {
    if (op.startsWith('#') && re.test(value.slice(0, n))) return value.slice(n);
    if (op.startsWith('%') && re.test(value.slice(value.length - n))) return value.slice(0, value.length - n);
  }
  return value;
}

/** Expand a word to one string: no field splitting, no globbing (assignments, redirect targets). */
export async function expandString(host: ExpandHost, word: Word): Promise<string> {
  let out = '';
  for (const part of word) out += await partValue(host, part);
  return out;
}

/** Expand a word to fields: variables and `$(...)`, then splitting of unquoted results, then globs. */
export async function expandWord(host: ExpandHost, word: Word): Promise<string[]> {
  const fields: Field[] = [];
  let cur: Field = { text: '', pattern: '', glob: false, started: false };
  const push = () => {
    if (cur.started) fields.push(cur);
    cur = { text: '', pattern: '', glob: false, started: false };
  };
  for (const part of word) {
    if (part.t === 'var' && part.q && part.name === '@' && !part.op) {
      // "$@" is one field per argument, the first and last joined to their neighbours.
      host.args.forEach((a, n) => {
        if (n > 0) push();
        cur.text += a;
        cur.pattern += escapeGlob(a);
        cur.started = true;
      });
      continue;
    }
    const value = await partValue(host, part);
    if (part.q) {
      cur.text += value;
      cur.pattern += escapeGlob(value);
      cur.started = true;
      continue;
    }
    if (part.t === 'lit') {
      cur.text += value;
      cur.pattern += value;
      cur.started = true;
      if (GLOB_CHARS.test(value)) cur.glob = true;
      continue;
    }
    const pieces = value.split(/[ \t\n]+/);
    pieces.forEach((piece, n) => {
      if (n > 0) push();
      if (piece === '') return;
      cur.text += piece;
      cur.pattern += piece;
      cur.started = true;
      if (GLOB_CHARS.test(piece)) cur.glob = true;
    });
  }
  push();
  const out: string[] = [];
  for (const f of fields) {
    if (!f.glob) {
      out.push(f.text);
      continue;
    }
    const matches = await glob(host, f.pattern);
    if (matches.length) out.push(...matches);
    else out.push(f.text);
  }
  return out;
}

/** A regular expression for one glob pattern (`*`, `?`, `[...]`, backslash escapes). */
export function globRegExp(pattern: string, segment = false): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\' && i + 1 < pattern.length) re += `\\${pattern[++i]}`.replace(/^\\([A-Za-z0-9])$/, '$1');
    else if (c === '*') re += segment ? '[^/]*' : '[\\s\\S]*';
    else if (c === '?') re += segment ? '[^/]' : '[\\s\\S]';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += /[.+^${}()|\]\\/]/.test(c) ? `\\${c}` : c;
  }
  return new RegExp(`^${re}$`);
}

/** Paths matching a glob pattern, sorted bytewise; dot files only when the segment starts with `.`. */
async function glob(host: ExpandHost, pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s) => s !== '');
  let found: string[] = [absolute ? '/' : ''];
  for (const [n, seg] of segments.entries()) {
    const last = n === segments.length - 1;
    const next: string[] = [];
    for (const base of found) {
      const dir = base === '' ? host.cwd : base.startsWith('/') ? base : `${host.cwd === '/' ? '' : host.cwd}/${base}`;
      const join = (name: string) => (base === '' ? name : base === '/' ? `/${name}` : `${base}/${name}`);
      if (!GLOB_CHARS.test(seg)) {
        const name = seg.replace(/\\(.)/g, '$1');
        const s = await host.fs.stat(`${dir === '/' ? '' : dir}/${name}`).catch(() => null);
        if (s && (last || s.type === 'dir')) next.push(join(name));
        continue;
      }
      const names = await host.fs.readdir(dir).catch(() => [] as string[]);
      const re = globRegExp(seg, true);
      for (const name of names) {
        if (name.startsWith('.') && !seg.startsWith('.')) continue;
        if (!re.test(name)) continue;
        if (!last && (await host.fs.stat(`${dir === '/' ? '' : dir}/${name}`).catch(() => null))?.type !== 'dir')
          continue;
        next.push(join(name));
      }
    }
    found = next;
  }
  return found.filter((p) => p !== '' && p !== '/').sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
