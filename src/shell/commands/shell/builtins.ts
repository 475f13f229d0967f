import { UsageError, type CommandFn } from '../../context.js';
import { runShellCommand } from './sh.js';
import { shellPath } from '../../overlay.js';
import { formatPrintf } from '../text/printf.js';
import { evalTest } from './test.js';
import { getopts, resolve } from '../util.js';

/** The options each command here parses (the rest take none): the table the flags test reads. */
export const BUILTIN_FLAGS: Record<string, string> = {
  echo: 'neE',
  printf: 'v',
  env: 'iu',
  basename: 'as',
  pwd: 'LP',
  seq: 'sw',
  realpath: 'emq',
};

/** `seq -w`: every number as wide as the widest, padded with zeros. */
const padded = (v: number, width: number) =>
  v < 0 ? `-${String(-v).padStart(width - 1, '0')}` : String(v).padStart(width, '0');

/** Commands that change or read the shell itself, and the small ones that need no files. */
export const builtins: Record<string, CommandFn> = {
  ':': async () => 0,
  true: async () => 0,
  false: async () => 1,
  cd: async (ctx) => {
    const s = ctx.shell.state;
    const wanted = ctx.args[0] === '-' ? (s.oldCwd ?? s.cwd) : (ctx.args[0] ?? ctx.shell.getVar('HOME') ?? '/');
    const target = shellPath(s.cwd, wanted);
    const st = await s.fs.stat(target);
    if (!st) throw new UsageError(`${ctx.args[0]}: No such file or directory`);
    if (st.type !== 'dir') throw new UsageError(`${ctx.args[0]}: Not a directory`);
    if (ctx.args[0] === '-') ctx.out(`${target}\n`);
    s.oldCwd = s.cwd;
    s.vars.set('OLDPWD', s.cwd);
    s.cwd = target;
    s.vars.set('PWD', target);
    return 0;
  },
  pwd: async (ctx) => {
    // -L and -P agree: the shell's folder is kept with its links resolved
    getopts(ctx.args, 'LP');
    ctx.out(`${ctx.shell.state.cwd}\n`);
    return 0;
  },
  shift: async (ctx) => {
    const n = Number(ctx.args[0] ?? 1);
    if (n > ctx.shell.state.args.length) return 1;
    ctx.shell.state.args.splice(0, n);
    return 0;
  },
  echo: async (ctx) => {
    let args = ctx.args;
    let newline = true;
    let escapes = false;
    while (args[0] && /^-[neE]+$/.test(args[0])) {
      // -e and -E: the last one given wins
      for (const c of args[0].slice(1)) {
        if (c === 'n') newline = false;
        else escapes = c === 'e';
      }
      args = args.slice(1);
    }
    const text = args.join(' ');
    ctx.out((escapes ? formatPrintf('%b', [text]).text : text) + (newline ? '\n' : ''));
    return 0;
  },
  printf: async (ctx) => {
    let args = ctx.args;
    let into: string | undefined;
    if (args[0] === '-v') {
      into = args[1];
      if (into === undefined) throw new UsageError('-v: option requires an argument', 2);
      args = args.slice(2);
    } else if (args[0] === '--') args = args.slice(1);
    else if (/^-./.test(args[0] ?? '')) throw new UsageError(`${args[0]}: invalid option`, 2);
    if (args.length === 0) throw new UsageError('usage: printf [-v var] format [arguments]', 2);
    const { text, error } = formatPrintf(args[0]!, args.slice(1));
    if (into !== undefined) ctx.shell.setVar(into, text);
    else ctx.out(text);
    if (error) ctx.err(`printf: ${error}\n`);
    return error ? 1 : 0;
  },
  test: async (ctx) => evalTest(ctx, ctx.args),
  '[': async (ctx) => {
    if (ctx.args[ctx.args.length - 1] !== ']') throw new UsageError("missing ']'", 2);
    return evalTest(ctx, ctx.args.slice(0, -1));
  },
  env: async (ctx) => {
    const env = new Map(ctx.env);
    let i = 0;
    // -i starts from an empty environment, -u NAME leaves NAME out
    for (; i < ctx.args.length && /^-./.test(ctx.args[i]!); i++) {
      const a = ctx.args[i]!;
      if (a === '--') {
        i++;
        break;
      }
      if (a === '-i' || a === '--ignore-environment') env.clear();
      else if (a === '-u' || a === '--unset') env.delete(ctx.args[++i] ?? '');
      else if (a.startsWith('-u')) env.delete(a.slice(2));
      else if (a.startsWith('--unset=')) env.delete(a.slice(8));
      else throw new UsageError(`invalid option -- '${a.slice(1)}'`, 125);
    }
    if (ctx.args[i] === '-') {
      env.clear();
      i++;
    }
    for (; i < ctx.args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(ctx.args[i]!); i++) {
      const a = ctx.args[i]!;
      env.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    }
    if (i < ctx.args.length) {
      const inner = ctx.shell.sub();
      for (const k of ctx.env.keys())
        if (!env.has(k)) {
          inner.state.vars.delete(k);
          inner.state.exported.delete(k);
        }
      for (const [k, v] of env) {
        inner.state.vars.set(k, v);
        inner.state.exported.add(k);
      }
      return (
        inner.state.commands.get(ctx.args[i]!)?.({
          ...ctx,
          name: ctx.args[i]!,
          args: ctx.args.slice(i + 1),
          env,
          shell: inner,
        }) ?? (ctx.err(`env: '${ctx.args[i]}': No such file or directory\n`), 127)
      );
    }
    for (const [k, v] of env) ctx.out(`${k}=${v}\n`);
    return 0;
  },
  basename: async (ctx) => {
    const { operands, flags, values } = getopts(ctx.args, 'a', 's', { multiple: 'a', suffix: 's' });
    if (operands.length === 0) throw new UsageError('missing operand');
    // -a or -s: every operand is a name; otherwise NAME [SUFFIX]
    const many = flags.has('a') || values.has('s');
    if (!many && operands.length > 2) throw new UsageError(`extra operand '${operands[2]}'`);
    const suffix = values.get('s')?.at(-1) ?? (many ? undefined : operands[1]);
    for (const path of many ? operands : operands.slice(0, 1)) {
      let base = path.replace(/\/+$/, '').split('/').pop() || (path.startsWith('/') ? '/' : '');
      if (suffix && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
      ctx.out(`${base}\n`);
    }
    return 0;
  },
  dirname: async (ctx) => {
    const { operands } = getopts(ctx.args, '');
    if (operands.length === 0) throw new UsageError('missing operand');
    for (const operand of operands) {
      const path = operand.replace(/\/+$/, '');
      const cut = path.lastIndexOf('/');
      ctx.out(`${cut < 0 ? '.' : cut === 0 ? '/' : path.slice(0, cut).replace(/\/+$/, '') || '/'}\n`);
    }
    return 0;
  },
  seq: async (ctx) => {
    // a negative number is an operand, not an option
    const opts = ctx.args.map((a) => (/^-\d/.test(a) ? `\0${a}` : a));
    const { operands, flags, values } = getopts(opts, 'w', 's', { 'equal-width': 'w', separator: 's' });
    const n = operands.map((a) => Number(a.replace(/^\0/, '')));
    if (n.length === 0 || n.some(Number.isNaN)) throw new UsageError('usage: seq [first [increment]] last');
    const [first, step, last] =
      n.length === 1 ? [1, 1, n[0]!] : n.length === 2 ? [n[0]!, 1, n[1]!] : [n[0]!, n[1]!, n[2]!];
    const sep = values.get('s')?.at(-1) ?? '\n';
    const width = flags.has('w') ? Math.max(String(first).length, String(last).length) : 0;
    const parts: string[] = [];
    let size = 0;
    for (let v = first; step > 0 ? v <= last : v >= last; v += step) {
      const text = width ? padded(v, width) : String(v);
      parts.push(text);
      size += text.length + 1;
      if (size > 1 << 24) break;
    }
    ctx.out(parts.length ? `${parts.join(sep)}\n` : '');
    return 0;
  },
  sleep: async (ctx) => {
    // GNU sleep sums its operands, each a number with an optional s, m, h or d
    const { operands } = getopts(
      ctx.args.map((a) => (/^-\d/.test(a) ? `\0${a}` : a)),
      '',
    );
    if (operands.length === 0) throw new UsageError('missing operand');
    let ms = 0;
    for (const operand of operands) {
      const m = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(operand);
      if (!m) throw new UsageError(`invalid time interval '${operand.replace(/^\0/, '')}'`);
      ms += Number(m[1]) * { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2]!]! * 1000;
    }
    const end = Date.now() + ms;
    while (Date.now() < end) {
      ctx.shell.checkTime();
      await new Promise((r) => setTimeout(r, Math.min(50, end - Date.now())));
    }
    ctx.shell.checkTime();
    return 0;
  },
  sh: runShellCommand,
  realpath: async (ctx) => {
    // by default every part but the last must exist; -e: all of it; -m: none of it
    const { operands, flags } = getopts(ctx.args, 'emq', '', {
      'canonicalize-existing': 'e',
      'canonicalize-missing': 'm',
      quiet: 'q',
    });
    let status = 0;
    for (const a of operands) {
      const abs = resolve(ctx, a);
      const must = flags.has('m') ? null : flags.has('e') ? abs : abs.slice(0, abs.lastIndexOf('/')) || '/';
      if (must !== null && !(await ctx.shell.state.fs.stat(must))) {
        if (!flags.has('q')) ctx.err(`realpath: ${a}: No such file or directory\n`);
        status = 1;
        continue;
      }
      ctx.out(`${abs}\n`);
    }
    return status;
  },
};
