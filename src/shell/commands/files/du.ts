import { errorText, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** du's options: the table the flags test reads. */
export const DU_FLAGS = 'shacbkmd' as const;

/** `du -h` sizes: one decimal under 10, rounded up, as GNU prints them. */
function human(bytes: number): string {
  if (bytes < 1024) return String(bytes);
  let v = bytes;
  let unit = 0;
  while (v >= 1024 && unit < 4) {
    v /= 1024;
    unit++;
  }
  const shown = v < 10 ? (Math.ceil(v * 10) / 10).toFixed(1) : String(Math.ceil(v));
  return `${shown}${'KMGT'[unit - 1]}`;
}

/**
 * du: disk usage as ext4 counts it (a file takes its size rounded up to 4 KiB blocks, a folder one
 * block), or the bytes themselves with -b; -s -a -c -h -k -m -d N.
 */
export const du: CommandFn = async (ctx) => {
  const { operands, flags, values } = getopts(ctx.args, 'sachbkm', 'd', {
    summarize: 's',
    all: 'a',
    total: 'c',
    'human-readable': 'h',
    bytes: 'b',
    'max-depth': 'd',
  });
  const fs = ctx.shell.state.fs;
  const maxDepth = flags.has('s') ? 0 : values.has('d') ? Number(values.get('d')![0]) : Infinity;
  const size = (bytes: number, dir: boolean) =>
    flags.has('b') ? (dir ? 4096 : bytes) : dir ? 4096 : Math.ceil(bytes / 4096) * 4096;
  const show = (bytes: number) =>
    flags.has('h')
      ? human(bytes)
      : flags.has('b')
        ? String(bytes)
        : String(Math.ceil(bytes / (flags.has('m') ? 1024 ** 2 : 1024)));
  let status = 0;
  let total = 0;
  const walk = async (abs: string, shown: string, depth: number): Promise<number> => {
    ctx.shell.checkTime();
    const st = await fs.stat(abs);
    if (!st) return 0;
    if (st.type !== 'dir') {
      const n = size(st.size, false);
      if (depth === 0 || (flags.has('a') && depth <= maxDepth)) ctx.out(`${show(n)}\t${shown}\n`);
      return n;
    }
    let n = size(0, true);
    for (const child of await fs.readdir(abs))
      n += await walk(
        `${abs === '/' ? '' : abs}/${child}`,
        shown.endsWith('/') ? shown + child : `${shown}/${child}`,
        depth + 1,
      );
    if (depth <= maxDepth) ctx.out(`${show(n)}\t${shown}\n`);
    return n;
  };
  for (const op of operands.length ? operands : ['.']) {
    try {
      if (!(await fs.stat(resolve(ctx, op)))) throw Object.assign(new Error(), { code: 'ENOENT' });
      total += await walk(resolve(ctx, op), op, 0);
    } catch (error) {
      ctx.err(`du: cannot access '${op}': ${errorText(error)}\n`);
      status = 1;
    }
  }
  if (flags.has('c')) ctx.out(`${show(total)}\ttotal\n`);
  return status;
};
