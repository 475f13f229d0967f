import { UsageError, type CommandFn } from '../../context.js';
import { compareC, getopts, lines, readText } from '../util.js';

/** join's options: the table the flags test reads. */
export const JOIN_FLAGS = 'ti12javeo' as const;

interface Side {
  rows: string[][];
  key: number;
  name: string;
}

/**
 * join (GNU): lines of two sorted files with equal join fields, merged as GNU merges them (every
 * pairing of a group of equal keys), with `-a`/`-v` unpaired lines, `-e` and `-o` formats, `-t`
 * and `-i`. Input out of order is reported once, as GNU's default order check does, with status 1.
 */
export const join: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 'i', 't12javeo', { 'ignore-case': 'i' });
  if (operands.length < 2)
    throw new UsageError(operands.length ? `missing operand after '${operands[0]}'` : 'missing operand');
  if (operands.length > 2) throw new UsageError(`extra operand '${operands[2]}'`);
  const tab = values.get('t')?.at(-1);
  if (tab !== undefined && tab.length > 1) throw new UsageError(`multi-character tab '${tab}'`);
  const field = (v: string | undefined, fallback: number) => {
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`invalid field number: '${v}'`);
    return Number(v) - 1;
  };
  const both = field(values.get('j')?.at(-1), 0);
  const split = (l: string) => (tab ? l.split(tab) : l.replace(/^[ \t]+/, '').split(/[ \t]+/));
  const sides: Side[] = [];
  for (const [i, name] of operands.entries()) {
    const text = await readText(ctx, name);
    sides.push({ rows: lines(text).map(split), key: field(values.get(i === 0 ? '1' : '2')?.at(-1), both), name });
  }
  const unpaired = new Set([...(values.get('a') ?? []), ...(values.get('v') ?? [])]);
  for (const n of unpaired) if (n !== '1' && n !== '2') throw new UsageError(`invalid file number: '${n}'`);
  const pairs = !values.has('v');
  const empty = values.get('e')?.at(-1) ?? '';
  const format = values
    .get('o')
    ?.at(-1)
    ?.split(/[, ]+/)
    .map((f) => {
      if (f === '0') return { file: 0, field: 0 };
      const m = /^([12])\.(\d+)$/.exec(f);
      if (!m || Number(m[2]) < 1) throw new UsageError(`invalid field specifier: '${f}'`);
      return { file: Number(m[1]), field: Number(m[2]) - 1 };
    });
  const out = tab ?? ' ';
  const keyOf = (s: Side, row: string[]) => {
    const k = row[s.key] ?? '';
    return flags.has('i') ? k.toLowerCase() : k;
  };
  const line = (a: string[] | undefined, b: string[] | undefined): string => {
    const [l, r] = sides as [Side, Side];
    const key = a ? (a[l.key] ?? '') : (b![r.key] ?? '');
    if (format) return format.map((f) => (f.file === 0 ? key : ((f.file === 1 ? a : b)?.[f.field] ?? empty))).join(out);
    const rest = (s: Side, row: string[] | undefined) => (row ? row.filter((_, i) => i !== s.key) : []);
    return [key, ...rest(l, a), ...rest(r, b)].join(out);
  };
  let disorder = false;
  let anyUnpaired = false;
  const [l, r] = sides as [Side, Side];
  const at = [0, 0];
  const checkOrder = (s: Side, i: number) => {
    if (i > 0 && i < s.rows.length && compareC(keyOf(s, s.rows[i - 1]!), keyOf(s, s.rows[i]!)) > 0) disorder = true;
  };
  const lone = (n: 0 | 1) => {
    anyUnpaired = true;
    const row = sides[n]!.rows[at[n]!]!;
    if (unpaired.has(String(n + 1))) ctx.out(`${n === 0 ? line(row, undefined) : line(undefined, row)}\n`);
    at[n]!++;
    checkOrder(sides[n]!, at[n]!);
  };
  while (at[0]! < l.rows.length && at[1]! < r.rows.length) {
    const c = compareC(keyOf(l, l.rows[at[0]!]!), keyOf(r, r.rows[at[1]!]!));
    if (c < 0) lone(0);
    else if (c > 0) lone(1);
    else {
      const key = keyOf(l, l.rows[at[0]!]!);
      const group = (s: Side, n: 0 | 1) => {
        const start = at[n]!;
        while (at[n]! < s.rows.length && keyOf(s, s.rows[at[n]!]!) === key) at[n]!++;
        checkOrder(s, at[n]!);
        return s.rows.slice(start, at[n]!);
      };
      const left = group(l, 0);
      const right = group(r, 1);
      if (pairs) for (const a of left) for (const b of right) ctx.out(`${line(a, b)}\n`);
    }
  }
  while (at[0]! < l.rows.length) lone(0);
  while (at[1]! < r.rows.length) lone(1);
  if (disorder && anyUnpaired) {
    ctx.err(`${ctx.name}: input is not in sorted order\n`);
    return 1;
  }
  return 0;
};
