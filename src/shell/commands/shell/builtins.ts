import { UsageError, type CommandFn } from '../../context.js';
import { runShellCommand } from './sh.js';
import { shellPath } from '../../overlay.js';
import { formatPrintf } from '../text/printf.js';
import { evalTest } from './test.js';
import { resolve } from '../util.js';

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
      if (args[0].includes('n')) newline = false;
      if (args[0].includes('e')) escapes = true;
      args = args.slice(1);
    }
    const text = args.join(' ');
    ctx.out((escapes ? formatPrintf('%b', [text]).text : text) + (newline ? '\n' : ''));
    return 0;
  },
  printf: async (ctx) => {
    if (ctx.args.length === 0) throw new UsageError('usage: printf format [arguments]', 2);
    const { text, error } = formatPrintf(ctx.args[0]!, ctx.args.slice(1));
    ctx.out(text);
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
    for (; i < ctx.args.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(ctx.args[i]!); i++) {
      const a = ctx.args[i]!;
      env.set(a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1));
    }
    if (i < ctx.args.length) {
      const inner = ctx.shell.sub();
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
    const [path = '', suffix] = ctx.args;
    let base = path.replace(/\/+$/, '').split('/').pop() || (path.startsWith('/') ? '/' : '');
    if (suffix && base !== suffix && base.endsWith(suffix)) base = base.slice(0, -suffix.length);
    ctx.out(`${base}\n`);
    return 0;
  },
  dirname: async (ctx) => {
    const path = (ctx.args[0] ?? '').replace(/\/+$/, '');
    const cut = path.lastIndexOf('/');
    ctx.out(`${cut < 0 ? '.' : cut === 0 ? '/' : path.slice(0, cut).replace(/\/+$/, '') || '/'}\n`);
    return 0;
  },
  seq: async (ctx) => {
    const n = ctx.args.map(Number);
    if (n.length === 0 || n.some(Number.isNaN)) throw new UsageError('usage: seq [first [increment]] last');
    const [first, step, last] =
      n.length === 1 ? [1, 1, n[0]!] : n.length === 2 ? [n[0]!, 1, n[1]!] : [n[0]!, n[1]!, n[2]!];
    let out = '';
    for (let v = first; step > 0 ? v <= last : v >= last; v += step) {
      out += `${v}\n`;
      if (out.length > 1 << 24) break;
    }
    ctx.out(out);
    return 0;
  },
  sleep: async (ctx) => {
    const ms = Number(ctx.args[0] ?? 0) * 1000;
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
    for (const a of ctx.args) ctx.out(`${resolve(ctx, a)}\n`);
    return 0;
  },
};
