import { ShellSyntaxError, type Word, type WordPart } from './ast.js';
import { evalArithmetic } from './arith.js';
import type { ExpandHost } from './expand-host.js';
import { globPattern } from './glob.js';

type VarPart = Extract<WordPart, { t: 'var' }>;

/** A failed expansion (`${x:?msg}`, `set -u`): the shell prints it and stops, as bash does. */
export class ExpansionError extends Error {}

const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

/** A word as a glob pattern: quoted parts match themselves. */
export async function patternOf(host: ExpandHost, word: Word): Promise<string> {
  let out = '';
  for (const part of word) {
    const v = await host.partText(part);
    out += part.q ? escapeGlob(v) : v;
  }
  return out;
}

/** The values a parameter stands for: one, or several for `$@`, `${a[@]}` and `${!a[@]}`. */
function lookup(host: ExpandHost, part: VarPart): { values: string[]; many: boolean; set: boolean } {
  let name = part.name;
  if (part.indirect && part.index === undefined) {
    const target = host.getVar(name) ?? '';
    if (part.op === undefined || !/^[A-Za-z_]/.test(target)) name = target;
    else name = target;
    const v = host.getVar(name);
    return { values: [v ?? ''], many: false, set: v !== undefined };
  }
  if (name === '@' || name === '*') return { values: [...host.args], many: true, set: host.args.length > 0 };
  if (part.index === '@' || part.index === '*') {
    const arr = host.getArray(name);
    const keys = arr ? [...arr.keys()] : [];
    if (part.indirect) return { values: keys, many: true, set: keys.length > 0 };
    const values = arr ? [...arr.values()] : [];
    return { values, many: true, set: values.length > 0 };
  }
  if (part.index !== undefined) {
    const arr = host.getArray(name);
    const key = host.isAssoc(name) ? part.index : String(evalArithmetic(part.index, host));
    let k = key;
    if (!host.isAssoc(name) && Number(key) < 0 && arr)
      k = String(Math.max(...[...arr.keys()].map(Number)) + 1 + Number(key));
    const v = arr ? arr.get(k) : k === '0' ? host.getVar(name) : undefined;
    return { values: [v ?? ''], many: false, set: v !== undefined };
  }
  const v = host.getVar(name);
  return { values: [v ?? ''], many: false, set: v !== undefined };
}

/** Replace the first (or every) match of a glob in `value`: `${v/p/r}`, `${v//p/r}`, `${v/#p/r}`, `${v/%p/r}`. */
function replaceGlob(value: string, op: string, pattern: string, replacement: string): string {
  if (pattern === '') return value;
  const re = globPattern(pattern);
  const fits = (s: string) => re.test(s);
  if (op === '/#') {
    for (let n = value.length; n >= 0; n--) if (fits(value.slice(0, n))) return replacement + value.slice(n);
    return value;
  }
  if (op === '/%') {
    for (let n = 0; n <= value.length; n++) if (fits(value.slice(n))) return value.slice(0, n) + replacement;
    return value;
  }
  let out = '';
  let i = 0;
  let done = false;
  while (i < value.length) {
    let hit = -1;
    if (!done)
      for (let n = value.length; n > i; n--)
        if (fits(value.slice(i, n))) {
          hit = n;
          break;
        }
    if (hit < 0) {
      out += value[i++];
      continue;
    }
    out += replacement;
    i = hit;
    if (op === '/') done = true;
  }
  return out;
}

/** ${x#p} ${x##p} ${x%p} ${x%%p}: remove the shortest or longest prefix or suffix matching a glob. */
export function trimAffix(value: string, op: string, pattern: string): string {
  const re = globPattern(pattern);
  const lengths = [...Array(value.length + 1).keys()];
  const order = op === '##' || op === '%%' ? lengths.reverse() : lengths;
  for (const n of order) {
    if (op.startsWith('#') && re.test(value.slice(0, n))) return value.slice(n);
    if (op.startsWith('%') && re.test(value.slice(value.length - n))) return value.slice(0, value.length - n);
  }
  return value;
}

function caseChange(value: string, op: string, pattern: string): string {
  const re = pattern ? globPattern(pattern) : null;
  const change = (c: string) => (op[0] === '^' ? c.toUpperCase() : c.toLowerCase());
  const chars = [...value];
  return chars.map((c, n) => ((op.length === 2 || n === 0) && (!re || re.test(c)) ? change(c) : c)).join('');
}

/** Expand one `$name` / `${...}` part: its value, or several values (`"$@"`, `"${a[@]}"`). */
export async function paramValue(host: ExpandHost, part: VarPart): Promise<string | string[]> {
  const found = lookup(host, part);
  const { many } = found;
  let values = found.values;
  const joined = () => values.join(' ');
  if (part.op === '#len') return String(many ? values.length : [...values[0]!].length);
  if (!part.op) {
    if (!found.set && !many && host.nounset() && !/^[0-9@*#?$!-]$/.test(part.name))
      throw new ExpansionError(`${part.name}: unbound variable`);
    return many ? values : values[0]!;
  }
  const arg = () => host.wordText(part.arg ?? []);
  const value = many ? joined() : values[0]!;
  const empty = value === '';
  switch (part.op) {
    case ':-':
      return empty ? arg() : many ? values : value;
    case '-':
      return !found.set ? arg() : many ? values : value;
    case ':=':
    case '=':
      if (part.op === ':=' ? empty : !found.set) {
        const v = await arg();
        host.setVar(part.name, v);
        return v;
      }
      return value;
    case ':+':
      return empty ? '' : arg();
    case '+':
      return found.set ? arg() : '';
    case ':?':
    case '?':
      if (part.op === ':?' ? empty : !found.set) {
        const msg = await arg();
        throw new ExpansionError(`${part.name}: ${msg || 'parameter null or not set'}`);
      }
      return value;
    case ':': {
      const offset = evalArithmetic((part.arg?.[0] as { v: string } | undefined)?.v ?? '0', host);
      const lengthSrc = (part.arg2?.[0] as { v: string } | undefined)?.v;
      const length = lengthSrc === undefined ? undefined : evalArithmetic(lengthSrc, host);
      if (many) {
        const list = part.name === '@' || part.name === '*' ? [host.getVar('0') ?? 'sh', ...values] : values;
        const from = offset < 0 ? Math.max(0, list.length + offset) : offset;
        const start = part.name === '@' || part.name === '*' ? from : from;
        return list.slice(start, length === undefined ? undefined : length < 0 ? list.length + length : start + length);
      }
      const chars = [...value];
      const from = offset < 0 ? Math.max(0, chars.length + offset) : Math.min(offset, chars.length);
      if (length !== undefined && length < 0) {
        const end = chars.length + length;
        if (end < from) throw new ExpansionError(`${length}: substring expression < 0`);
        return chars.slice(from, end).join('');
      }
      return chars.slice(from, length === undefined ? undefined : from + length).join('');
    }
    case '@':
      throw new ShellSyntaxError(`\${${part.name}@...}: transformations are not supported by this shell`);
  }
  const pattern = await patternOf(host, part.arg ?? []);
  let apply: (v: string) => string;
  if (part.op.startsWith('/')) {
    const replacement = await host.wordText(part.arg2 ?? []);
    apply = (v) => replaceGlob(v, part.op!, pattern, replacement);
  } else if (/^[\^,]/.test(part.op)) apply = (v) => caseChange(v, part.op!, pattern);
  else apply = (v) => trimAffix(v, part.op!, pattern);
  values = values.map(apply);
  return many ? values : values[0]!;
}
