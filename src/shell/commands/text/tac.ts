import type { CommandFn } from '../../context.js';
import { inputs } from '../util.js';

/** tac: the lines of each input, last first; a last line without a newline stays without one, as in GNU tac. */
export const tac: CommandFn = async (ctx) => {
  const { texts, failed } = await inputs(
    ctx,
    ctx.args.filter((a) => a !== '--'),
  );
  for (const { text } of texts) ctx.out((text.match(/[^\n]*\n|[^\n]+$/g) ?? []).reverse().join(''));
  return failed ? 1 : 0;
};
