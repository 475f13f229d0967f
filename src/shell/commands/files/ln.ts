import { FsError } from '../../../fs/errors.js';
import { errorText, UsageError, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** ln's options: the table the flags test reads. */
export const LN_FLAGS = 'sfnvT' as const;

const parentOf = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));
const baseOf = (p: string) => p.replace(/\/+$/, '').split('/').pop() || p;

/**
 * A link's target as stored: a relative one as given, when it stays below the root from the
 * link's folder; an absolute one (the shell's `/` is the workspace root) made relative to that
 * folder, so the link means in the backend what it meant in the shell. Null: it leads outside.
 */
export function confinedTarget(target: string, linkPath: string): string | null {
  const from = parentOf(linkPath).split('/').filter(Boolean);
  if (target.startsWith('/')) {
    const to = target.split('/').filter((p) => p && p !== '.');
    const resolved: string[] = [];
    for (const part of to) {
      if (part === '..') resolved.pop();
      else resolved.push(part);
    }
    let common = 0;
    while (common < from.length && common < resolved.length && from[common] === resolved[common]) common++;
    const up = from.slice(common).map(() => '..');
    return [...up, ...resolved.slice(common)].join('/') || '.';
  }
  let depth = from.length;
  for (const part of target.split('/')) {
    if (part === '..') depth--;
    else if (part && part !== '.') depth++;
    if (depth < 0) return null;
  }
  return target;
}

/**
 * ln -s: symbolic links only (the workspace's backends keep no hard links, so `ln` without `-s`
 * fails and says so). `-f` replaces, `-n`/`-T` never descend into an existing folder's name
 * (this shell never follows a link, so a link to a folder is never one), `-v` tells each link.
 * A target leading outside the workspace is refused, as every link in the workspace must stay in.
 */
export const ln: CommandFn = async (ctx) => {
  const { flags, operands } = getopts(ctx.args, LN_FLAGS, '', {
    symbolic: 's',
    force: 'f',
    'no-dereference': 'n',
    'no-target-directory': 'T',
    verbose: 'v',
  });
  if (!flags.has('s'))
    throw new UsageError('hard links are not supported: the workspace keeps no hard links; use ln -s TARGET NAME');
  if (operands.length === 0) throw new UsageError('missing file operand');
  const fs = ctx.shell.state.fs;
  const last = operands.length > 1 ? operands[operands.length - 1]! : '.';
  const lastStat = await fs.stat(resolve(ctx, last)).catch(() => null);
  const intoDir = !flags.has('T') && lastStat?.type === 'dir' && operands.length > 1 ? true : operands.length === 1;
  const targets = operands.length > 1 ? operands.slice(0, -1) : operands;
  if (targets.length > 1 && !intoDir)
    throw new UsageError(`target '${last}': ${errorText(new FsError(lastStat ? 'ENOTDIR' : 'ENOENT', 'ln'))}`);
  if (flags.has('T') && operands.length > 2) throw new UsageError(`extra operand '${operands[2]}'`);
  let status = 0;
  for (const target of targets) {
    const name = intoDir
      ? last === '.' && operands.length === 1
        ? baseOf(target)
        : `${last.replace(/\/+$/, '')}/${baseOf(target)}`
      : last;
    const where = resolve(ctx, name);
    const stored = confinedTarget(target, where);
    if (stored === null) {
      ctx.err(`ln: failed to create symbolic link '${name}': its target '${target}' leads outside the workspace\n`);
      status = 1;
      continue;
    }
    try {
      await fs.symlink(stored, where, flags.has('f'));
      if (flags.has('v')) ctx.out(`'${name}' -> '${target}'\n`);
    } catch (error) {
      ctx.err(`ln: failed to create symbolic link '${name}': ${errorText(error)}\n`);
      status = 1;
    }
  }
  return status;
};
