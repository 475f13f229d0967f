import { UsageError, type CommandContext } from '../../context.js';
import { inputs } from '../util.js';

/** nl's options: the table the flags test reads. */
export const NL_FLAGS = 'bwsvin' as const;

/**
 * `nl [-b a|t|n] [-w N] [-s SEP] [-v N] [-i N] [FILE...]`, as GNU numbers lines: `nl -ba FILE | sed -n
 * 'a,bp'` is how some agents read files. Lines not numbered get blanks as wide as the number and separator.
 */
export async function nl(ctx: CommandContext): Promise<number> {
  let style = 't';
  let width = 6;
  let sep = '\t';
  let next = 1;
  let step = 1;
  let format = 'rn';
  const files: string[] = [];
  const args = ctx.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const m = /^-([bwsvin])(.*)$/.exec(a);
    if (m) {
      const value = m[2] !== '' ? m[2]! : args[++i];
      if (value === undefined) throw new UsageError(`option requires an argument -- '${m[1]}'`);
      if (m[1] === 'b') style = value;
      else if (m[1] === 'w') width = Number(value);
      else if (m[1] === 's') sep = value;
      else if (m[1] === 'v') next = Number(value);
      else if (m[1] === 'i') step = Number(value);
      else format = value;
      continue;
    }
    if (a.startsWith('-') && a !== '-') throw new UsageError(`invalid option -- '${a.slice(1)}'`);
    files.push(a);
  }
  if (!['a', 't', 'n'].includes(style)) throw new UsageError(`invalid body numbering style: '${style}'`);
  if (!['ln', 'rn', 'rz'].includes(format)) throw new UsageError(`invalid line numbering format: '${format}'`);
  const { texts, failed } = await inputs(ctx, files);
  let out = '';
  for (const { text } of texts) {
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    for (const line of lines) {
      const numbered = style === 'a' || (style === 't' && line !== '');
      if (!numbered) {
        out += `${' '.repeat(width + sep.length)}${line}\n`;
        continue;
      }
      const n = String(next);
      const shown = format === 'ln' ? n.padEnd(width) : format === 'rz' ? n.padStart(width, '0') : n.padStart(width);
      out += `${shown}${sep}${line}\n`;
      next += step;
    }
  }
  ctx.out(out);
  return failed ? 1 : 0;
}
