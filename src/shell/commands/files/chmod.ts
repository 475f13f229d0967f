import { UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { getopts, resolve } from '../util.js';

/** chmod's options: the table the flags test reads. */
export const CHMOD_FLAGS = 'Rvcf' as const;

const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** A mode after `spec` (octal, or GNU's symbolic `[ugoa]*[-+=][rwxX]*`, comma-separated); null: not a mode. */
export function applyMode(spec: string, mode: number, dir: boolean): number | null {
  if (/^[0-7]{1,4}$/.test(spec)) return Number.parseInt(spec, 8);
  let out = mode;
  for (const clause of spec.split(',')) {
    const m = /^([ugoa]*)((?:[-+=][rwxXst]*)+)$/.exec(clause);
    if (!m) return null;
    const who = m[1] || 'a';
    const mask =
      (who.includes('u') || who.includes('a') ? 0o700 : 0) |
      (who.includes('g') || who.includes('a') ? 0o070 : 0) |
      (who.includes('o') || who.includes('a') ? 0o007 : 0);
    // Without a who, the umask (022) keeps write for group and others off, as GNU does.
    const umask = m[1] ? 0 : 0o022;
    for (const [, op, perms] of m[2]!.matchAll(/([-+=])([rwxXst]*)/g)) {
      let bits = 0;
      for (const p of perms!) {
        if (p === 'r') bits |= 0o444;
        if (p === 'w') bits |= 0o222;
        if (p === 'x' || (p === 'X' && (dir || (out & 0o111) !== 0))) bits |= 0o111;
        if (p === 's') bits |= 0o6000;
        if (p === 't') bits |= 0o1000;
      }
      const these = bits & (mask | 0o7000) & ~umask;
      if (op === '+') out |= these;
      else if (op === '-') out &= ~these;
      else out = (out & ~mask) | these;
    }
  }
  return out;
}

/**
 * chmod: octal and symbolic modes, `-R`, `-v`/`-c`, `-f`. The workspace keeps one mode bit, a
 * file's executable bit, and only where the backend keeps modes (DESIGN: `capabilities.modes`);
 * folders are always 755. A mode it cannot keep (600, 700, a folder's 700, setuid) is refused
 * for that file, which keeps its mode: never a silent change to something else.
 */
export const chmod: CommandFn = async (ctx) => {
  // GNU reads `-x`, `-w` as a mode, not as options.
  const modeArg = ctx.args.findIndex((a) => /^-[rwxXst]+$/.test(a));
  const args = modeArg < 0 ? ctx.args : ctx.args.filter((_, i) => i !== modeArg);
  const { flags, operands } = getopts(args, CHMOD_FLAGS, '', {
    recursive: 'R',
    verbose: 'v',
    changes: 'c',
    silent: 'f',
    quiet: 'f',
  });
  const spec = modeArg < 0 ? operands.shift() : ctx.args[modeArg];
  if (spec === undefined) throw new UsageError('missing operand');
  if (operands.length === 0) throw new UsageError(`missing operand after '${spec}'`);
  const fs = ctx.shell.state.fs;
  let status = 0;
  const one = async (shown: string, p: string, top: boolean): Promise<void> => {
    const st = await fs.lstat(p).catch(() => null);
    if (!st) {
      if (!flags.has('f')) ctx.err(`chmod: cannot access '${shown}': No such file or directory\n`);
      status = 1;
      return;
    }
    if (st.type === 'symlink') {
      // GNU changes what a link points to; this shell never follows one.
      if (top && !flags.has('f'))
        ctx.err(`chmod: cannot operate on '${shown}': it is a symbolic link, which this shell does not follow\n`);
      if (top) status = 1;
      return;
    }
    const dir = st.type === 'dir';
    const before = dir ? 0o755 : st.executable ? 0o755 : 0o644;
    const after = applyMode(spec, before, dir);
    if (after === null) throw new UsageError(`invalid mode: '${spec}'`);
    const keepable = dir ? after === 0o755 : after === 0o644 || after === 0o755;
    if (!keepable || (!dir && after !== before && !fs.keepsModes)) {
      if (!flags.has('f'))
        ctx.err(
          `chmod: cannot set mode ${after.toString(8).padStart(4, '0')} on '${shown}': ${fs.keepsModes ? `this workspace keeps only a file's executable bit (644 or 755${dir ? '; folders are always 755' : ''})` : 'this workspace keeps no file modes'}\n`,
        );
      status = 1;
    } else {
      if (!dir && after !== before) await fs.setExecutable(p, after === 0o755);
      if (flags.has('v') || (flags.has('c') && after !== before)) report(ctx, shown, before, after);
    }
    if (dir && flags.has('R'))
      for (const name of await fs.readdir(p)) await one(`${shown.replace(/\/+$/, '')}/${name}`, join(p, name), false);
  };
  for (const op of operands) await one(op, resolve(ctx, op), true);
  return status;
};

function report(ctx: CommandContext, shown: string, before: number, after: number): void {
  const text = (m: number) =>
    `${m.toString(8).padStart(4, '0')} (${'rwxrwxrwx'.replace(/./g, (c, k: number) => (m & (0o400 >> k) ? c : '-'))})`;
  ctx.out(
    after === before
      ? `mode of '${shown}' retained as ${text(after)}\n`
      : `mode of '${shown}' changed from ${text(before)} to ${text(after)}\n`,
  );
}
