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

async function copyTree(fs: ShellFs, from: string, to: string): Promise<void> {
  const st = await fs.stat(from);
  if (!st) throw new FsError('ENOENT', 'copy');
  if (st.type === 'file') return fs.writeFile(to, await fs.readFile(from));
  if (to === from || to.startsWith(`${from}/`)) throw new UsageError(`cannot copy a directory, '${from}', into itself`);
  if (!(await fs.stat(to))) await fs.mkdir(to);
  for (const name of await fs.readdir(from)) await copyTree(fs, join(from, name), join(to, name));
}

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
    const { operands, flags } = getopts(ctx.args, 'pv');
    const fs = ctx.shell.state.fs;
    if (!operands.length) throw new UsageError('missing operand');
    return perOperand(
      ctx,
      operands,
      async (d) => {
        const p = resolve(ctx, d);
        if (!flags.has('p')) return fs.mkdir(p);
        let sofar = '';
        for (const part of p.split('/').filter(Boolean)) {
          sofar += `/${part}`;
          const st = await fs.stat(sofar);
          if (!st) await fs.mkdir(sofar);
          else if (st.type !== 'dir') throw new FsError('ENOTDIR', 'mkdir');
        }
      },
      'cannot create directory ',
    );
  },
  rmdir: async (ctx) => {
    const fs = ctx.shell.state.fs;
    return perOperand(
      ctx,
      getopts(ctx.args, 'p').operands,
      async (d) => {
        const p = resolve(ctx, d);
        const st = await fs.stat(p);
        if (!st) throw new FsError('ENOENT', 'rmdir');
        if (st.type !== 'dir') throw new FsError('ENOTDIR', 'rmdir');
        if ((await fs.readdir(p)).length) throw new FsError('ENOTEMPTY', 'rmdir');
        await fs.remove(p);
      },
      'failed to remove ',
    );
  },
  rm: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'rRfdiv', '', { recursive: 'r', force: 'f' });
    const fs = ctx.shell.state.fs;
    if (!operands.length && !flags.has('f')) throw new UsageError('missing operand');
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
        if (st.type === 'dir' && !flags.has('r') && !flags.has('R')) throw new FsError('EISDIR', 'rm');
        await fs.remove(p);
      },
      'cannot remove ',
    );
  },
  touch: async (ctx) => {
    const fs = ctx.shell.state.fs;
    return perOperand(
      ctx,
      getopts(ctx.args, 'acm').operands,
      async (f) => {
        const p = resolve(ctx, f);
        const st = await fs.stat(p);
        if (!st) await fs.writeFile(p, new Uint8Array());
        else if (st.type === 'file') await fs.writeFile(p, await fs.readFile(p));
      },
      'cannot touch ',
    );
  },
  cp: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'rRfpavn', '', { recursive: 'r' });
    const fs = ctx.shell.state.fs;
    if (operands.length < 2)
      throw new UsageError(
        operands.length ? `missing destination file operand after '${operands[0]}'` : 'missing file operand',
      );
    const dest = resolve(ctx, operands.pop()!);
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
        await copyTree(fs, from, to);
      },
      'cannot stat ',
    );
  },
  mv: async (ctx) => {
    const { operands, flags } = getopts(ctx.args, 'fivn');
    const fs = ctx.shell.state.fs;
    if (operands.length < 2)
      throw new UsageError(
        operands.length ? `missing destination file operand after '${operands[0]}'` : 'missing file operand',
      );
    const dest = resolve(ctx, operands.pop()!);
    return perOperand(
      ctx,
      operands,
      async (s) => {
        const from = resolve(ctx, s);
        if (!(await fs.stat(from))) throw new FsError('ENOENT', 'mv');
        const to = await target(fs, from, dest, operands.length > 1);
        if (to === from) return;
        const existing = await fs.stat(to);
        if (flags.has('n') && existing) return;
        if (existing?.type === 'dir') throw new UsageError(`cannot overwrite directory '${to}'`);
        await copyTree(fs, from, to);
        await fs.remove(from);
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
