import { FsError } from '../../../fs/errors.js';
import { decodeLossy, encodeUtf8 } from '../../bytes.js';
import { errorText, UsageError, type CommandContext, type CommandFn } from '../../context.js';
import type { ShellFs } from '../../overlay.js';
import { getopts, resolve } from '../util.js';

const base = (p: string) => p.replace(/\/+$/, '').split('/').pop() ?? p;
const join = (dir: string, name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);

/** Run `each` per operand, printing `name: operand: error` for the ones that fail; status 1 if any did. */
async function perOperand(
  ctx: CommandContext,
  operands: string[],
  each: (operand: string) => Promise<void>,
  verb = '',
): Promise<number> {
  let status = 0;
  for (const op of operands) {
    try {
      await each(op);
    } catch (error) {
      ctx.err(`${ctx.name}: ${verb}${verb ? `'${op}'` : op}: ${errorText(error)}\n`);
      status = 1;
    }
  }
  return status;
}

/** The options each command here parses: the table the flags test reads. */
export const FILE_COMMAND_FLAGS: Record<string, string> = {
  cat: 'nAETvb',
  mkdir: 'pv',
  rmdir: 'pv',
  rm: 'rRfdv',
  touch: 'acm',
  cp: 'rRfavn',
  mv: 'fivn',
  tee: 'a',
};

/**
 * Copy a file or a tree; `copied(from, to)` hears of each one copied, as `cp -v` lists them. A new
 * file takes the source's executable bit, as GNU cp gives it the source's mode; `move` keeps it
 * over an existing one too, as a rename does.
 */
async function copyTree(
  fs: ShellFs,
  from: string,
  to: string,
  copied?: (from: string, to: string) => void,
  move = false,
): Promise<void> {
  const st = await fs.stat(from);
  if (!st) throw new FsError('ENOENT', 'copy');
  if (st.type === 'file') {
    const keep = move || !(await fs.stat(to)) ? (await fs.lstat(from))?.executable : undefined;
    await fs.writeFile(to, await fs.readFile(from), undefined, keep);
    copied?.(from, to);
    return;
  }
  if (to === from || to.startsWith(`${from}/`)) throw new UsageError(`cannot copy a directory, '${from}', into itself`);
  if (!(await fs.stat(to))) await fs.mkdir(to);
  copied?.(from, to);
  for (const name of await fs.readdir(from)) await copyTree(fs, join(from, name), join(to, name), copied, move);
}

/** The next line of the shared standard input, as `mv -i` reads its answer; null at its end. */
function answer(input: { text: string; pos: number }): string | null {
  if (input.pos >= input.text.length) return null;
  const end = input.text.indexOf('\n', input.pos);
  const line = input.text.slice(input.pos, end < 0 ? input.text.length : end);
  input.pos = end < 0 ? input.text.length : end + 1;
  return line;
}

/** A path as the user wrote it, extended by what a command appended below it: for `-v` lines. */
const shownAs = (written: string, abs: string, absWritten: string) =>
  abs === absWritten ? written : `${written.replace(/\/+$/, '')}${abs.slice(absWritten.length)}`;

/** Where `cp`/`mv` put `source`: inside `dest` when it is a folder, else at `dest`. */
async function target(fs: ShellFs, source: string, dest: string, many: boolean): Promise<string> {
  const st = await fs.stat(dest);
  if (st?.type === 'dir') return join(dest, base(source));
  if (many) throw new FsError('ENOTDIR', 'target');
  return dest;
}

export const fileCommands: Record<string, CommandFn> = {
  cat: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'nAETvb', '', { 'show-all': 'A', number: 'n' });
    const fs = ctx.shell.state.fs;
    let n = 0;
    const ends = flags.has('A') || flags.has('E');
    const tabs = flags.has('A') || flags.has('T');
    const controls = flags.has('A') || flags.has('v');
    const visible = (text: string) => {
      let t = text;
      if (controls)
        t = t.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) =>
          c === '\t' ? c : `^${String.fromCharCode(c.charCodeAt(0) ^ 64)}`,
        );
      if (tabs) t = t.replace(/\t/g, '^I');
      if (ends) t = t.replace(/\n/g, '$\n');
      return t;
    };
    const numbered = (text: string) =>
      flags.has('b')
        ? text.replace(/^(?=[^\n])|(?<=\n)(?=[^\n])/gm, () => `${String(++n).padStart(6)}\t`)
        : flags.has('n')
          ? text.replace(/^(?=.)|(?<=\n)(?=.|\n)/gm, () => `${String(++n).padStart(6)}\t`)
          : text;
    const show = (text: string) => ctx.out(numbered(visible(text)));
    if (operands.length === 0) {
      show(ctx.stdin);
      return 0;
    }
    return perOperand(ctx, operands, async (f) =>
      show(f === '-' ? ctx.stdin : decodeLossy(await fs.readFile(resolve(ctx, f)))),
    );
  },
  mkdir: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'pv', '', { parents: 'p', verbose: 'v' });
    const fs = ctx.shell.state.fs;
    if (!operands.length) throw new UsageError('missing operand');
    return perOperand(
      ctx,
      operands,
      async (d) => {
        const p = resolve(ctx, d);
        const written = d.replace(/\/+$/, '');
        // the created folder as the user wrote it: `a`, then `a/b` for `mkdir -pv a/b`
        const made = (abs: string) => {
          if (flags.has('v'))
            ctx.out(`mkdir: created directory '${written.slice(0, written.length - (p.length - abs.length))}'\n`);
        };
        if (!flags.has('p')) {
          await fs.mkdir(p);
          made(p);
          return;
        }
        let sofar = '';
        for (const part of p.split('/').filter(Boolean)) {
          sofar += `/${part}`;
          const st = await fs.stat(sofar);
          if (!st) {
            await fs.mkdir(sofar);
            made(sofar);
          } else if (st.type !== 'dir') throw new FsError('ENOTDIR', 'mkdir');
        }
      },
      'cannot create directory ',
    );
  },
  rmdir: async (ctx) => {
    const fs = ctx.shell.state.fs;
    const { operands, flags } = getopts(ctx.args, 'pv', '', { parents: 'p', verbose: 'v' });
    const removeOne = async (shown: string) => {
      if (flags.has('v')) ctx.out(`rmdir: removing directory, '${shown}'\n`);
      const p = resolve(ctx, shown);
      const st = await fs.stat(p);
      if (!st) throw new FsError('ENOENT', 'rmdir');
      if (st.type !== 'dir') throw new FsError('ENOTDIR', 'rmdir');
      if ((await fs.readdir(p)).length) throw new FsError('ENOTEMPTY', 'rmdir');
      await fs.remove(p);
    };
    return perOperand(
      ctx,
      operands,
      async (d) => {
        await removeOne(d);
        // -p: then each parent the operand names, `a/b/c` then `a/b` then `a`
        let rest = d.replace(/\/+$/, '');
        while (flags.has('p') && rest.includes('/')) {
          rest = rest.slice(0, rest.lastIndexOf('/')).replace(/\/+$/, '');
          if (rest === '') break;
          await removeOne(rest);
        }
      },
      'failed to remove ',
    );
  },
  rm: async (ctx) => {
    if (ctx.args.some((a) => /^-[a-zA-Z]*[iI]/.test(a) || a.startsWith('--interactive')))
      throw new UsageError('-i/-I (ask before each removal) is not supported by this shell, which has no terminal', 2);
    const { operands, flags } = getopts(ctx.args, 'rRfdv', '', {
      recursive: 'r',
      force: 'f',
      dir: 'd',
      verbose: 'v',
    });
    const fs = ctx.shell.state.fs;
    if (!operands.length && !flags.has('f')) throw new UsageError('missing operand');
    const recursive = flags.has('r') || flags.has('R');
    // -v lists what goes, deepest first, as GNU rm does
    const removeTree = async (abs: string, shown: string): Promise<void> => {
      const st = await fs.stat(abs);
      if (st?.type === 'dir') {
        for (const name of await fs.readdir(abs))
          await removeTree(join(abs, name), `${shown.replace(/\/+$/, '')}/${name}`);
        await fs.remove(abs);
        ctx.out(`removed directory '${shown}'\n`);
      } else {
        await fs.remove(abs);
        ctx.out(`removed '${shown}'\n`);
      }
    };
    return perOperand(
      ctx,
      operands,
      async (f) => {
        const p = resolve(ctx, f);
        // A link is removed as itself.
        const st = (await fs.stat(p).catch(() => null)) ?? (await fs.lstat(p));
        if (!st) {
          if (flags.has('f')) return;
          throw new FsError('ENOENT', 'rm');
        }
        if (st.type === 'dir' && !recursive) {
          if (!flags.has('d')) throw new FsError('EISDIR', 'rm');
          if ((await fs.readdir(p)).length) throw new FsError('ENOTEMPTY', 'rm');
        }
        if (flags.has('v')) await removeTree(p, f);
        else await fs.remove(p);
      },
      'cannot remove ',
    );
  },
  touch: async (ctx) => {
    const fs = ctx.shell.state.fs;
    const { operands, flags } = getopts(ctx.args, 'acm', '', { 'no-create': 'c' });
    if (!operands.length) throw new UsageError('missing file operand');
    // The workspace keeps one time per file, the modification time: -a alone moves no time it keeps.
    const moves = !flags.has('a') || flags.has('m');
    return perOperand(
      ctx,
      operands,
      async (f) => {
        const p = resolve(ctx, f);
        const st = await fs.stat(p);
        if (!st) {
          if (!flags.has('c')) await fs.writeFile(p, new Uint8Array());
        } else if (st.type === 'file' && moves) await fs.writeFile(p, await fs.readFile(p));
      },
      'cannot touch ',
    );
  },
  cp: async (ctx) => {
    if (ctx.args.some((a) => /^-[a-zA-Z]*p/.test(a) || a.startsWith('--preserve')))
      throw new UsageError(
        "-p (keep the source's times) is not supported by this shell: the workspace stamps each file with the time it is written; copy without -p",
      );
    const { operands, flags } = getopts(ctx.args, 'rRfavn', '', { recursive: 'r', verbose: 'v', 'no-clobber': 'n' });
    const fs = ctx.shell.state.fs;
    if (operands.length < 2)
      throw new UsageError(
        operands.length ? `missing destination file operand after '${operands[0]}'` : 'missing file operand',
      );
    const destShown = operands.pop()!;
    const dest = resolve(ctx, destShown);
    return perOperand(
      ctx,
      operands,
      async (s) => {
        const from = resolve(ctx, s);
        const st = await fs.stat(from);
        if (!st) throw new FsError('ENOENT', 'cp');
        if (st.type === 'dir' && !flags.has('r') && !flags.has('R') && !flags.has('a'))
          throw new UsageError(`-r not specified; omitting directory '${s}'`);
        const to = await target(fs, from, dest, operands.length > 1);
        if (flags.has('n') && (await fs.stat(to))) return;
        const toShown = to === dest ? destShown : `${destShown.replace(/\/+$/, '')}/${base(s)}`;
        await copyTree(
          fs,
          from,
          to,
          flags.has('v') ? (a, b) => ctx.out(`'${shownAs(s, a, from)}' -> '${shownAs(toShown, b, to)}'\n`) : undefined,
        );
      },
      'cannot stat ',
    );
  },
  mv: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'fivn', '', {
      force: 'f',
      interactive: 'i',
      verbose: 'v',
      'no-clobber': 'n',
    });
    // of -f, -i and -n the last given wins, as in GNU mv
    let last = '';
    for (const a of ctx.args) {
      if (a === '--') break;
      const long = { '--force': 'f', '--interactive': 'i', '--no-clobber': 'n' }[a];
      if (long) last = long;
      else if (/^-[a-zA-Z]+$/.test(a)) for (const c of a.slice(1)) if ('fin'.includes(c)) last = c;
    }
    const fs = ctx.shell.state.fs;
    if (operands.length < 2)
      throw new UsageError(
        operands.length ? `missing destination file operand after '${operands[0]}'` : 'missing file operand',
      );
    const destShown = operands.pop()!;
    const dest = resolve(ctx, destShown);
    const input = ctx.input ?? { text: ctx.stdin, pos: 0 };
    return perOperand(
      ctx,
      operands,
      async (s) => {
        const from = resolve(ctx, s);
        if (!(await fs.stat(from))) throw new FsError('ENOENT', 'mv');
        const to = await target(fs, from, dest, operands.length > 1);
        if (to === from) return;
        const toShown = to === dest ? destShown : `${destShown.replace(/\/+$/, '')}/${base(s)}`;
        const existing = await fs.stat(to);
        if (existing && last === 'n') return;
        // -i asks on stderr and reads the answer from stdin, as GNU mv does without a terminal
        if (existing && last === 'i') {
          ctx.err(`mv: overwrite '${toShown}'? `);
          if (!/^[yY]/.test(answer(input) ?? '')) return;
        }
        if (existing?.type === 'dir') throw new UsageError(`cannot overwrite directory '${to}'`);
        await copyTree(fs, from, to, undefined, true);
        await fs.remove(from);
        if (flags.has('v')) ctx.out(`renamed '${s}' -> '${toShown}'\n`);
      },
      'cannot stat ',
    );
  },
  tee: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'a');
    const fs = ctx.shell.state.fs;
    ctx.out(ctx.stdin);
    return perOperand(ctx, operands, async (f) => {
      const p = resolve(ctx, f);
      const old = flags.has('a') ? await fs.readFile(p).catch(() => new Uint8Array()) : new Uint8Array();
      const add = encodeUtf8(ctx.stdin);
      const joined = new Uint8Array(old.length + add.length);
      joined.set(old);
      joined.set(add, old.length);
      await fs.writeFile(p, joined);
    });
  },
};
