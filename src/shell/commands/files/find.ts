import { errorText, UsageError, type CommandFn } from '../../context.js';
import { globRegExp } from '../../expand.js';
import { getopts, lines, resolve } from '../util.js';

type Test = (path: string, name: string, type: 'file' | 'dir', depth: number) => boolean;

/** find's expression: -name -iname -path -type -maxdepth -mindepth -not/! and implicit -a, -o. */
function parseExpression(args: string[]): { test: Test; maxDepth: number; minDepth: number } {
  let maxDepth = Infinity;
  let minDepth = 0;
  let i = 0;
  const primary = (): Test => {
    const a = args[i++];
    const value = () => {
      const v = args[i++];
      if (v === undefined) throw new UsageError(`missing argument to '${a}'`);
      return v;
    };
    switch (a) {
      case '!':
      case '-not': {
        const t = primary();
        return (...x) => !t(...x);
      }
      case '(': {
        const t = or();
        if (args[i++] !== ')') throw new UsageError("missing ')'");
        return t;
      }
      case '-name': {
        const re = globRegExp(value());
        return (_p, n) => re.test(n);
      }
      case '-iname': {
        const re = new RegExp(globRegExp(value()).source, 'i');
        return (_p, n) => re.test(n);
      }
      case '-path':
      case '-wholename': {
        const re = globRegExp(value());
        return (p) => re.test(p);
      }
      case '-type': {
        const t = value();
        return (_p, _n, type) => (t === 'd' ? type === 'dir' : t === 'f' ? type === 'file' : false);
      }
      case '-maxdepth':
        maxDepth = Number(value());
        return () => true;
      case '-mindepth':
        minDepth = Number(value());
        return () => true;
      case '-print':
        return () => true;
      case '-empty':
        return () => true;
      default:
        throw new UsageError(`unknown predicate '${a}'`);
    }
  };
  const and = (): Test => {
    let t = primary();
    while (i < args.length && args[i] !== '-o' && args[i] !== ')') {
      if (args[i] === '-a' || args[i] === '-and') i++;
      const l = t,
        r = primary();
      t = (...x) => l(...x) && r(...x);
    }
    return t;
  };
  const or = (): Test => {
    let t = and();
    while (args[i] === '-o' || args[i] === '-or') {
      i++;
      const l = t,
        r = and();
      t = (...x) => l(...x) || r(...x);
    }
    return t;
  };
  const test = args.length ? or() : () => true;
  return { test, maxDepth, minDepth };
}

/** find: walks each start folder in sorted order (GNU find uses directory order). */
export const find: CommandFn = async (ctx) => {
  const starts: string[] = [];
  let k = 0;
  while (k < ctx.args.length && !/^[-!(]/.test(ctx.args[k]!)) starts.push(ctx.args[k++]!);
  const { test, maxDepth, minDepth } = parseExpression(ctx.args.slice(k));
  const fs = ctx.shell.state.fs;
  let status = 0;
  const visit = async (abs: string, shown: string, depth: number): Promise<void> => {
    ctx.shell.checkTime();
    const st = await fs.stat(abs);
    if (!st) return;
    const name = depth === 0 ? shown.replace(/\/+$/, '').split('/').pop() || shown : shown.split('/').pop()!;
    if (depth >= minDepth && test(shown, name, st.type, depth)) ctx.out(`${shown}\n`);
    if (st.type !== 'dir' || depth >= maxDepth) return;
    for (const child of await fs.readdir(abs))
      await visit(
        abs === '/' ? `/${child}` : `${abs}/${child}`,
        shown.endsWith('/') ? `${shown}${child}` : `${shown}/${child}`,
        depth + 1,
      );
  };
  for (const start of starts.length ? starts : ['.']) {
    const abs = resolve(ctx, start);
    if (!(await fs.stat(abs).catch(() => null))) {
      ctx.err(`find: '${start}': No such file or directory\n`);
      status = 1;
      continue;
    }
    await visit(abs, start, 0);
  }
  return status;
};

/** xargs: runs the command (default echo) with stdin's words appended, all at once or `-n` at a time. */
export const xargs: CommandFn = async (ctx) => {
  let cut = 0;
  while (cut < ctx.args.length && ctx.args[cut]!.startsWith('-') && ctx.args[cut] !== '-')
    cut += /^-[nIL]$/.test(ctx.args[cut]!) ? 2 : 1;
  const { values, flags } = getopts(ctx.args.slice(0, cut), 'r0t', 'nIL');
  const command = cut < ctx.args.length ? ctx.args.slice(cut) : ['echo'];
  const words = flags.has('0')
    ? ctx.stdin.split('\0').filter(Boolean)
    : values.has('I') || values.has('L')
      ? lines(ctx.stdin)
      : (ctx.stdin.match(/"[^"]*"|'[^']*'|\S+/g)?.map((w) => w.replace(/^["']|["']$/g, '')) ?? []);
  if (words.length === 0 && flags.has('r')) return 0;
  const per = values.has('n')
    ? Number(values.get('n')![0])
    : values.has('I') || values.has('L')
      ? 1
      : Math.max(words.length, 1);
  let status = 0;
  for (let i = 0; i < Math.max(words.length, 1); i += per) {
    const chunk = words.slice(i, i + per);
    const replaceStr = values.get('I')?.[0];
    const argv = replaceStr ? command.map((a) => a.split(replaceStr).join(chunk[0] ?? '')) : [...command, ...chunk];
    const fn = ctx.shell.state.commands.get(argv[0]!);
    if (!fn) {
      ctx.err(`xargs: ${argv[0]}: No such file or directory\n`);
      return 127;
    }
    const code = await fn({ ...ctx, stdin: '', name: argv[0]!, args: argv.slice(1) }).catch((e) => {
      ctx.err(`${argv[0]}: ${errorText(e)}\n`);
      return 1;
    });
    if (code !== 0) status = 123;
  }
  return status;
};
