import { UsageError, type CommandFn } from '../../context.js';
import { compareC, getopts, inputs, lines } from '../util.js';

/** comm's options: the table the flags test reads. */
export const COMM_FLAGS = '123' as const;

/** comm: lines only in the first file, only in the second, in both (tab-indented columns), as GNU prints them. */
export const comm: CommandFn = async (ctx) => {
  const { operands, flags } = getopts(ctx.args, '123');
  if (operands.length !== 2)
    throw new UsageError(
      operands.length < 2 ? `missing operand after '${operands[0] ?? ''}'` : `extra operand '${operands[2]}'`,
    );
  const { texts, failed } = await inputs(ctx, operands);
  if (failed) return 1;
  const [a, b] = [lines(texts[0]!.text), lines(texts[1]!.text)];
  const shown = [1, 2, 3].filter((c) => !flags.has(String(c)));
  const column = (c: number, line: string) => {
    if (!shown.includes(c)) return;
    ctx.out(`${'\t'.repeat(shown.indexOf(c))}${line}\n`);
  };
  let unsorted = false;
  const check = (list: string[], i: number, which: number) => {
    if (i > 0 && i < list.length && compareC(list[i - 1]!, list[i]!) > 0 && !unsorted) {
      ctx.err(`comm: file ${which} is not in sorted order\n`);
      unsorted = true;
    }
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const c = i >= a.length ? 1 : j >= b.length ? -1 : compareC(a[i]!, b[j]!);
    if (c < 0) column(1, a[i++]!), check(a, i, 1);
    else if (c > 0) column(2, b[j++]!), check(b, j, 2);
    else column(3, a[i++]!), j++, check(a, i, 1), check(b, j, 2);
  }
  if (unsorted) ctx.err('comm: input is not in sorted order\n');
  return unsorted ? 1 : 0;
};
