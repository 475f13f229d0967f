import { encodeUtf8 } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { compareC, getopts, inputs, resolve } from '../util.js';

/** sort's options, each letter once: the table the flags test reads. */
export const SORT_FLAGS = 'rnufbsVzhckot' as const;

/** dpkg's order of a character in a version's non-digit part: `~` first, then the end, letters, the rest. */
const order = (c: string | undefined) =>
  c === undefined || /\d/.test(c) ? 0 : /[A-Za-z]/.test(c) ? c.charCodeAt(0) : c === '~' ? -1 : c.charCodeAt(0) + 256;

function verrevcmp(a: string, b: string): number {
  let i = 0;
  let j = 0;
  const digit = (s: string, k: number) => k < s.length && s[k]! >= '0' && s[k]! <= '9';
  while (i < a.length || j < b.length) {
    while ((i < a.length && !digit(a, i)) || (j < b.length && !digit(b, j))) {
      const d = order(a[i]) - order(b[j]);
      if (d) return d;
      i++;
      j++;
    }
    while (a[i] === '0') i++;
    while (b[j] === '0') j++;
    let first = 0;
    while (digit(a, i) && digit(b, j)) {
      if (!first) first = a.charCodeAt(i) - b.charCodeAt(j);
      i++;
      j++;
    }
    if (digit(a, i)) return 1;
    if (digit(b, j)) return -1;
    if (first) return first;
  }
  return 0;
}

const SUFFIX = /(?:\.[A-Za-z~][A-Za-z0-9~]*)*$/;

/** GNU's `sort -V` (filevercmp): versions inside names compared as numbers, file suffixes last. */
export function versionCompare(a: string, b: string): number {
  if (a === b) return 0;
  const pa = a.replace(SUFFIX, '');
  const pb = b.replace(SUFFIX, '');
  return (pa === pb ? 0 : verrevcmp(pa, pb)) || verrevcmp(a, b);
}

const HUMAN = 'KMGTPEZY';
/** `sort -h`: 2K < 1M, by suffix first, then by number. */
function humanValue(s: string): number {
  const m = /^\s*(-?\d*\.?\d+)([KMGTPEZY]?)/i.exec(s);
  if (!m) return 0;
  return Number(m[1]) * 1024 ** (HUMAN.indexOf(m[2]!.toUpperCase()) + 1 || 0);
}

interface Key {
  from: number;
  to: number;
  mods: string;
}

function parseKey(spec: string): Key {
  const m = /^(\d+)(?:\.\d+)?([bfnrVh]*)(?:,(\d+)(?:\.\d+)?([bfnrVh]*))?$/.exec(spec);
  if (!m || m[1] === '0') throw new UsageError(`invalid number at field start: invalid count at start of '${spec}'`, 2);
  return { from: Number(m[1]), to: m[3] ? Number(m[3]) : Infinity, mods: (m[2] ?? '') + (m[4] ?? '') };
}

function field(line: string, key: Key, sep: string | undefined): string {
  const fields = sep !== undefined ? line.split(sep) : line.split(/(?<=\S)(?=\s)/);
  return fields.slice(key.from - 1, key.to === Infinity ? fields.length : key.to).join(sep ?? '');
}

/** sort: C-locale order, keys (-k with modifiers), -n -h -V -r -u -f -b -s, -z records, -o FILE, -c. */
export const sort: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'rnufbsVzhc', 'kto', {
    reverse: 'r',
    unique: 'u',
    'numeric-sort': 'n',
    'version-sort': 'V',
    'human-numeric-sort': 'h',
    'ignore-case': 'f',
    'zero-terminated': 'z',
    output: 'o',
    check: 'c',
    'field-separator': 't',
    key: 'k',
    stable: 's',
  });
  const sep = values.get('t')?.[0];
  const global = [...flags].filter((f) => 'bfnrVh'.includes(f)).join('');
  const keys = (values.get('k') ?? []).map(parseKey);
  const { texts, failed } = await inputs(ctx, operands);
  const eol = flags.has('z') ? '\0' : '\n';
  const all = texts.flatMap((t) => {
    const parts = t.text.split(eol);
    if (parts[parts.length - 1] === '') parts.pop();
    return parts;
  });
  const compareBy = (a: string, b: string, mods: string) => {
    let ka = mods.includes('b') ? a.trimStart() : a;
    let kb = mods.includes('b') ? b.trimStart() : b;
    if (mods.includes('f')) [ka, kb] = [ka.toUpperCase(), kb.toUpperCase()];
    const c = mods.includes('n')
      ? (Number.parseFloat(ka) || 0) - (Number.parseFloat(kb) || 0)
      : mods.includes('h')
        ? humanValue(ka) - humanValue(kb)
        : mods.includes('V')
          ? versionCompare(ka, kb)
          : compareC(ka, kb);
    return mods.includes('r') ? -c : c;
  };
  const keyed = (a: string, b: string) => {
    if (!keys.length) return compareBy(a, b, global);
    for (const k of keys) {
      const mods = /[bfnrVh]/.test(k.mods) ? k.mods : global;
      const c = compareBy(field(a, k, sep), field(b, k, sep), mods);
      if (c) return c;
    }
    return 0;
  };
  // The last resort (whole lines, byte order) is left out by -s and -u, as in GNU sort.
  const cmp = (a: string, b: string) => {
    const c = keyed(a, b);
    if (c || flags.has('s') || flags.has('u')) return c;
    return flags.has('r') ? -compareC(a, b) : compareC(a, b);
  };
  if (flags.has('c')) {
    for (let i = 1; i < all.length; i++)
      if (cmp(all[i - 1]!, all[i]!) > 0 || (flags.has('u') && cmp(all[i - 1]!, all[i]!) === 0)) {
        ctx.err(`sort: ${operands[0] ?? '-'}:${i + 1}: disorder: ${all[i]}\n`);
        return 1;
      }
    return 0;
  }
  let out = [...all].sort(cmp);
  if (flags.has('u')) out = out.filter((l, i) => i === 0 || keyed(out[i - 1]!, l) !== 0);
  const text = out.map((l) => l + eol).join('');
  const target = values.get('o')?.[0];
  if (target !== undefined) await ctx.shell.state.fs.writeFile(resolve(ctx, target), encodeUtf8(text));
  else ctx.out(text);
  return failed ? 2 : 0;
};
