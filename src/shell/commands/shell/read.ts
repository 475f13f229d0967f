import { UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { splitFields } from '../../expand.js';
import { getopts } from '../util.js';

/** Take the next line (up to `delim`) from the shared standard input; null at its end. */
function takeLine(ctx: CommandContext, delim: string): string | null {
  const input = ctx.input ?? { text: ctx.stdin, pos: 0 };
  if (input.pos >= input.text.length) return null;
  const end = input.text.indexOf(delim, input.pos);
  const line = input.text.slice(input.pos, end < 0 ? input.text.length : end);
  input.pos = end < 0 ? input.text.length : end + 1;
  return end < 0 ? `${line}\u0000EOF` : line;
}

/** The options read and mapfile parse (the rest they refuse): the table the flags test reads. */
export const READ_FLAGS: Record<string, string> = { read: 'rsadp', mapfile: 'td' };

/** `read [-r] [-a name] [-d delim] [-p prompt] [name...]`: one line of input into variables. */
export const read: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 'rs', 'adpnt');
  if (values.has('n') || values.has('t')) throw new UsageError('read: -n and -t are not supported by this shell', 2);
  const delim = values.has('d') ? values.get('d')!.at(-1)!.slice(0, 1) || '\u0000' : '\n';
  // -p's prompt shows only when input comes from a terminal, as in bash; here it never does
  let line = takeLine(ctx, delim);
  if (line === null) {
    for (const name of operands.length ? operands : ['REPLY']) ctx.shell.setVar(name, '');
    return 1;
  }
  const partial = line.endsWith('\u0000EOF');
  if (partial) line = line.slice(0, -4);
  if (!flags.has('r')) {
    while (line.endsWith('\\') && !partial) {
      const more = takeLine(ctx, delim);
      if (more === null) break;
      line = line.slice(0, -1) + more.replace(/\u0000EOF$/, '');
    }
    line = line.replace(/\\(.)/g, '$1');
  }
  const ifs = ctx.env.get('IFS') ?? ctx.shell.getVar('IFS');
  const state = ctx.shell.state;
  if (values.has('a')) {
    const name = values.get('a')!.at(-1)!;
    const fields = splitFields(line, ifs);
    state.vars.delete(name);
    state.arrays.set(name, new Map(fields.map((f, n) => [String(n), f])));
    return partial ? 1 : 0;
  }
  const names = operands.length ? operands : ['REPLY'];
  if (names.length === 1 && operands.length === 0) {
    ctx.shell.setVar('REPLY', line);
    return partial ? 1 : 0;
  }
  const chars = ifs ?? ' \t\n';
  const esc = (t: string) => t.replace(/[\]\\^-]/g, '\\$&');
  const white = esc(chars.replace(/[^ \t\n]/g, ''));
  const other = esc(chars.replace(/[ \t\n]/g, ''));
  let rest = white ? line.replace(new RegExp(`^[${white}]+|[${white}]+$`, 'g'), '') : line;
  const field = new RegExp(
    `^([^${white}${other}]*)${white ? `[${white}]*` : ''}${other ? `(?:[${other}]${white ? `[${white}]*` : ''})?` : ''}`,
  );
  for (const [n, name] of names.entries()) {
    if (n === names.length - 1) {
      ctx.shell.setVar(name, rest);
      break;
    }
    const m = chars === '' ? null : field.exec(rest);
    ctx.shell.setVar(name, m ? m[1]! : rest);
    rest = m ? rest.slice(m[0].length) : '';
  }
  return partial ? 1 : 0;
};

/** `mapfile -t name` / `readarray`: every line of input into an indexed array. */
export const mapfile: CommandFn = async (ctx) => {
  const { flags, values, operands } = getopts(ctx.args, 't', 'dnsuCc');
  for (const v of ['n', 's', 'u', 'C', 'c'])
    if (values.has(v)) throw new UsageError(`mapfile: -${v} is not supported by this shell`, 2);
  const name = operands[0] ?? 'MAPFILE';
  const delim = values.get('d')?.at(-1)?.slice(0, 1) ?? '\n';
  const input = ctx.input ?? { text: ctx.stdin, pos: 0 };
  const text = input.text.slice(input.pos);
  input.pos = input.text.length;
  const items = text === '' ? [] : text.split(new RegExp(`(?<=${delim.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&')})`));
  const arr = new Map(items.map((l, n) => [String(n), flags.has('t') && l.endsWith(delim) ? l.slice(0, -1) : l]));
  ctx.shell.state.vars.delete(name);
  ctx.shell.state.arrays.set(name, arr);
  return 0;
};
