import { UsageError, type CommandFn } from '../../context.js';
import { getopts, inputs, lines } from '../util.js';

/** column's options: the table the flags test reads. */
export const COLUMN_FLAGS = 'tsocx' as const;

/** The width a tab-filled column takes: the longest entry, up to the next tab stop. */
const tabStop = (n: number) => n + (8 - (n % 8));

/**
 * column (util-linux): `-t` a table, cells split on runs of blanks or on each `-s` character,
 * padded to the widest cell and joined by `-o` (two spaces); without `-t`, the entries filled into
 * columns down (across with `-x`) within `-c` (80) characters, tab-aligned. Empty lines are skipped.
 */
export const column: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 'tx', 'soc', {
    table: 't',
    separator: 's',
    'output-separator': 'o',
    columns: 'c',
    fillrows: 'x',
  });
  const { texts, failed } = await inputs(ctx, operands);
  const rows = texts.flatMap((t) => lines(t.text)).filter((l) => l !== '');
  if (flags.has('t')) {
    const seps = values.get('s')?.at(-1);
    const split = (l: string) =>
      seps ? l.split(new RegExp(`[${seps.replace(/[\]\\^-]/g, '\\$&')}]`)) : l.trim().split(/[ \t]+/);
    const cells = rows.map(split);
    const count = Math.max(0, ...cells.map((c) => c.length));
    const widths = Array.from({ length: count }, (_, i) => Math.max(...cells.map((c) => (c[i] ?? '').length)));
    const gap = values.get('o')?.at(-1) ?? '  ';
    for (const row of cells) {
      const padded = widths.map((w, i) => (i === count - 1 ? (row[i] ?? '') : (row[i] ?? '').padEnd(w)));
      ctx.out(`${padded.join(gap)}\n`);
    }
    return failed ? 1 : 0;
  }
  if (values.has('s') || values.has('o')) {
    // util-linux reads them only for a table; without -t they change nothing, so say so.
    throw new UsageError('-s and -o shape a table: use them with -t');
  }
  const width = Number(values.get('c')?.at(-1) ?? 80);
  if (!Number.isInteger(width) || width <= 0)
    throw new UsageError(`invalid columns argument: '${values.get('c')!.at(-1)}'`);
  if (rows.length === 0) return failed ? 1 : 0;
  const cell = tabStop(Math.max(...rows.map((r) => r.length)));
  const across = Math.max(1, Math.floor(width / cell));
  const down = Math.ceil(rows.length / across);
  const tabsAfter = (entry: string, end: number, from: number) =>
    '\t'.repeat(Math.ceil((end - from - entry.length) / 8));
  for (let r = 0; r < (flags.has('x') ? Math.ceil(rows.length / across) : down); r++) {
    const line: string[] = [];
    for (let c = 0; c < across; c++) {
      const entry = flags.has('x') ? rows[r * across + c] : rows[c * down + r];
      if (entry === undefined) break;
      line.push(entry);
    }
    ctx.out(
      `${line.map((e, c) => (c === line.length - 1 ? e : e + tabsAfter(e, (c + 1) * cell, c * cell))).join('')}\n`,
    );
  }
  return failed ? 1 : 0;
};
