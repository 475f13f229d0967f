import type { CommandFn } from '../../context.js';
import { getopts, lines, runArgv } from '../util.js';

/** xargs: runs the command (default echo) with stdin's words appended, all at once or `-n` at a time. */
export const xargs: CommandFn = async (ctx) => {
  let cut = 0;
  while (cut < ctx.args.length && ctx.args[cut]!.startsWith('-') && ctx.args[cut] !== '-')
    cut += /^-[nIL]$/.test(ctx.args[cut]!) ? 2 : 1;
  const { values, flags } = getopts(ctx.args.slice(0, cut), 'r0t', 'nIL');
  const command = cut < ctx.args.length ? ctx.args.slice(cut) : ['echo'];
  const words = flags.has('0')
    ? ctx.stdin.split('\0').filter(Boolean)
    : values.has('I') || values.has('L')
      ? lines(ctx.stdin)
      : (ctx.stdin.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^["']|["']$/g, '')) ?? []);
  if (words.length === 0 && flags.has('r')) return 0;
  const per = values.has('n')
    ? Number(values.get('n')![0])
    : values.has('I') || values.has('L')
      ? 1
      : Math.max(words.length, 1);
  let status = 0;
  for (let i = 0; i < Math.max(words.length, 1); i += per) {
    const chunk = words.slice(i, i + per);
    const replaceStr = values.get('I')?.[0];
    const argv = replaceStr ? command.map((a) => a.split(replaceStr).join(chunk[0] ?? '')) : [...command, ...chunk];
    const code = await runArgv(ctx, argv, 'xargs');
    if (code === 127) return 127;
    if (code !== 0) status = 123;
  }
  return status;
};
