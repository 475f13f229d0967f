import { getopts, resolve } from '../util.js';
import type { CommandFn } from '../../context.js';
import type { ShellFs } from '../../overlay.js';

/** readlink's options: the table the flags test reads. */
export const READLINK_FLAGS = 'fenmv' as const;

/**
 * A path with every link in it followed, inside the workspace (`/` is its root): null when a part
 * is missing where `mode` needs it (`f`: all but the last, `e`: all), or on a loop.
 */
export async function canonical(fs: ShellFs, path: string, mode: 'f' | 'e' | 'm'): Promise<string | null> {
  const todo = path.split('/').filter(Boolean);
  const done: string[] = [];
  let hops = 0;
  while (todo.length) {
    const part = todo.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done.pop();
      continue;
    }
    const here = `/${[...done, part].join('/')}`;
    const st = await fs.lstat(here).catch(() => null);
    if (st?.type === 'symlink') {
      if (++hops > 40) return null;
      const target = st.target!;
      if (target.startsWith('/')) done.length = 0;
      todo.unshift(...target.split('/'));
      continue;
    }
    if (!st && (mode === 'e' || (mode === 'f' && todo.length > 0))) return null;
    if (st && st.type !== 'dir' && todo.length > 0 && mode !== 'm') return null;
    done.push(part);
  }
  return `/${done.join('/')}`;
}

/** readlink: a link's target; with -f/-e/-m the path with every link followed, as GNU canonicalizes. */
export const readlink: CommandFn = async (ctx) => {
  const { flags, operands } = getopts(ctx.args, READLINK_FLAGS, '', {
    canonicalize: 'f',
    'canonicalize-existing': 'e',
    'canonicalize-missing': 'm',
    'no-newline': 'n',
    verbose: 'v',
  });
  if (operands.length === 0) {
    ctx.err('readlink: missing operand\n');
    return 1;
  }
  const fs = ctx.shell.state.fs;
  const mode = flags.has('e') ? 'e' : flags.has('m') ? 'm' : flags.has('f') ? 'f' : undefined;
  const end = flags.has('n') && operands.length === 1 ? '' : '\n';
  let status = 0;
  for (const op of operands) {
    const p = resolve(ctx, op);
    let answer: string | null;
    if (mode) answer = await canonical(fs, p, mode);
    else {
      const st = await fs.lstat(p).catch(() => null);
      answer = st?.type === 'symlink' ? st.target! : null;
      if (!answer && flags.has('v'))
        ctx.err(`readlink: ${op}: ${st ? 'Invalid argument' : 'No such file or directory'}\n`);
    }
    if (answer === null) status = 1;
    else ctx.out(answer + end);
  }
  return status;
};
