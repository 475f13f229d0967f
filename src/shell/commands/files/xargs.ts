import type { CommandFn } from '../../context.js';
import { getopts, lines, runArgv } from '../util.js';

/** xargs's options: the table the flags test reads. */
export const XARGS_FLAGS = 'r0tnIL' as const;

const words = (text: string) => text.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^["']|["']$/g, '')) ?? [];

/**
 * xargs: runs the command (default echo) with stdin's words appended: all at once, `-n` words or
 * `-L` lines at a time, or once per line with `-I`; `-t` prints each command line on stderr first.
 */
export const xargs: CommandFn = async (ctx) => {
  let cut = 0;
  while (cut < ctx.args.length && ctx.args[cut]!.startsWith('-') && ctx.args[cut] !== '-')
    cut += /^-[nIL]$/.test(ctx.args[cut]!) ? 2 : 1;
  const { values, flags } = getopts(ctx.args.slice(0, cut), 'r0t', 'nIL');
  const command = cut < ctx.args.length ? ctx.args.slice(cut) : ['echo'];
  const replaceStr = values.get('I')?.at(-1);
  const perLines = replaceStr !== undefined ? 1 : values.has('L') ? Number(values.get('L')!.at(-1)) : 0;
  // each batch is the words of one command line
  let batches: string[][];
  if (flags.has('0')) batches = [ctx.stdin.split('\0').filter(Boolean)];
  else if (perLines > 0) {
    const ls = lines(ctx.stdin).filter((l) => l.trim() !== '');
    batches = [];
    for (let i = 0; i < ls.length; i += perLines)
      batches.push(replaceStr !== undefined ? [ls[i]!.replace(/^\s+/, '')] : ls.slice(i, i + perLines).flatMap(words));
  } else batches = [words(ctx.stdin)];
  const all = batches.flat();
  if (all.length === 0 && flags.has('r')) return 0;
  if (values.has('n')) {
    const per = Number(values.get('n')!.at(-1));
    batches = [];
    for (let i = 0; i < Math.max(all.length, 1); i += per) batches.push(all.slice(i, i + per));
  }
  // with no input, GNU runs the command once (no -r), except with -I, which has nothing to put in
  if (batches.length === 0) {
    if (replaceStr !== undefined) return 0;
    batches = [[]];
  }
  let status = 0;
  for (const chunk of batches) {
    const argv = replaceStr ? command.map((a) => a.split(replaceStr).join(chunk[0] ?? '')) : [...command, ...chunk];
    if (flags.has('t')) ctx.err(`${argv.join(' ')}\n`);
    const code = await runArgv(ctx, argv, 'xargs');
    if (code === 127) return 127;
    if (code !== 0) status = 123;
  }
  return status;
};
