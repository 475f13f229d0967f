import { UsageError, type CommandContext } from '../../context.js';
import { resolve } from '../util.js';

const FILE_TESTS = new Set(['-e', '-f', '-d', '-s', '-r', '-w', '-x', '-L', '-h']);
const INT_OPS: Record<string, (a: number, b: number) => boolean> = {
  '-eq': (a, b) => a === b,
  '-ne': (a, b) => a !== b,
  '-lt': (a, b) => a < b,
  '-le': (a, b) => a <= b,
  '-gt': (a, b) => a > b,
  '-ge': (a, b) => a >= b,
};

function integer(v: string): number {
  if (!/^\s*[-+]?\d+\s*$/.test(v)) throw new UsageError(`${v}: integer expression expected`, 2);
  return Number(v);
}

/** test(1) and `[`: file, string and integer tests, `!`, `-a`, `-o` and parentheses. 0 true, 1 false. */
export async function evalTest(ctx: CommandContext, args: string[]): Promise<number> {
  let i = 0;
  async function primary(): Promise<boolean> {
    const a = args[i];
    if (a === '!') {
      i++;
      return !(await primary());
    }
    if (a === '(') {
      i++;
      const v = await or();
      if (args[i++] !== ')') throw new UsageError("missing ')'", 2);
      return v;
    }
    const op = args[i + 1];
    if (
      op !== undefined &&
      (op in INT_OPS || ['=', '==', '!=', '<', '>'].includes(op)) &&
      i + 2 < args.length + 0 + 1
    ) {
      const b = args[i + 2] ?? '';
      i += 3;
      if (op in INT_OPS) return INT_OPS[op]!(integer(a!), integer(b));
      if (op === '!=') return a !== b;
      if (op === '<') return a! < b;
      if (op === '>') return a! > b;
      return a === b;
    }
    if (a !== undefined && FILE_TESTS.has(a) && args[i + 1] !== undefined) {
      i += 2;
      const st = await ctx.shell.state.fs.stat(resolve(ctx, args[i - 1]!)).catch(() => null);
      switch (a) {
        case '-f':
          return st?.type === 'file';
        case '-d':
          return st?.type === 'dir';
        case '-s':
          return !!st && st.size > 0;
        case '-L':
        case '-h':
          return (await ctx.shell.state.fs.lstat(resolve(ctx, args[i - 1]!)).catch(() => null))?.type === 'symlink';
        case '-x':
          return (
            st?.type === 'dir' ||
            (!!st && (await ctx.shell.state.fs.lstat(resolve(ctx, args[i - 1]!)))?.executable === true)
          );
        default:
          return !!st;
      }
    }
    if (a === '-z' && args[i + 1] !== undefined) {
      i += 2;
      return args[i - 1] === '';
    }
    if (a === '-n' && args[i + 1] !== undefined) {
      i += 2;
      return args[i - 1] !== '';
    }
    i++;
    return a !== undefined && a !== '';
  }
  async function and(): Promise<boolean> {
    let v = await primary();
    while (args[i] === '-a') {
      i++;
      const r = await primary();
      v = v && r;
    }
    return v;
  }
  async function or(): Promise<boolean> {
    let v = await and();
    while (args[i] === '-o') {
      i++;
      const r = await and();
      v = v || r;
    }
    return v;
  }
  if (args.length === 0) return 1;
  const result = await or();
  if (i < args.length) throw new UsageError(`${args[i]}: unexpected operator`, 2);
  return result ? 0 : 1;
}
