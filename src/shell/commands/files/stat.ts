import { UsageError, type CommandFn } from '../../context.js';
import { format as dateFormat } from '../system/date.js';
import { getopts, resolve } from '../util.js';

/** stat's options: the table the flags test reads. */
export const STAT_FLAGS = 'c' as const;

/**
 * stat -c / --printf: a file's facts by directive (%n %s %F %a %A %Y %y %U %G %u %g %b %h %%).
 * Owners are the workspace's one user; modes are what the workspace keeps (executable or not).
 */
export const stat: CommandFn = async (ctx) => {
  const { operands, values } = getopts(ctx.args, '', 'c%', { format: 'c', printf: '%' });
  const fmt = values.has('c') ? `${values.get('c')![0]}\n` : values.get('%')?.[0];
  if (fmt === undefined)
    throw new UsageError(
      "stat's default listing is not supported by this shell; use -c FORMAT (for example -c '%n %s %y')",
    );
  if (!operands.length) throw new UsageError('missing operand');
  const fs = ctx.shell.state.fs;
  let status = 0;
  for (const op of operands) {
    const st = await fs.fullStat(resolve(ctx, op));
    if (!st) {
      ctx.err(`stat: cannot statx '${op}': No such file or directory\n`);
      status = 1;
      continue;
    }
    const dir = st.type === 'dir';
    const link = st.type === 'symlink';
    const mode = dir ? 0o755 : link ? 0o777 : st.mode & 0o111 ? 0o755 : 0o644;
    const size = dir ? 4096 : st.size;
    const bits = 'rwxrwxrwx'.replace(/./g, (c, k: number) => (mode & (0o400 >> k) ? c : '-'));
    const text = fmt
      .replace(/\\n/g, '\n')
      .replace(/\\t/g, '\t')
      .replace(/%([a-zA-Z%])/g, (m, c: string) => {
        switch (c) {
          case 'n':
            return op;
          case 's':
            return String(size);
          case 'F':
            return dir ? 'directory' : link ? 'symbolic link' : size === 0 ? 'regular empty file' : 'regular file';
          case 'a':
            return mode.toString(8);
          case 'A':
            return (dir ? 'd' : link ? 'l' : '-') + bits;
          case 'Y':
            return String(Math.floor(st.mtimeMs / 1000));
          case 'y':
            return dateFormat(`%F %T.%N +0000`, st.mtimeMs);
          case 'U':
          case 'G':
            return 'user';
          case 'u':
          case 'g':
            return '1000';
          case 'h':
            return '1';
          case 'b':
            return String(dir ? 8 : Math.ceil(size / 4096) * 8);
          case '%':
            return '%';
          default:
            throw new UsageError(`the format directive '${m}' is not supported by this shell`);
        }
      });
    ctx.out(text);
  }
  return status;
};
