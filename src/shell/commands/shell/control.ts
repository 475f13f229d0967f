import { decodeLossy } from '../../bytes.js';
import {
  ExitSignal,
  LoopSignal,
  ReturnSignal,
  UsageError,
  type CommandContext,
  type CommandFn,
} from '../../context.js';
import { evalArithmetic } from '../../arith.js';
import { resolve } from '../util.js';

const OPTION_LETTERS: Record<string, 'errexit' | 'nounset' | 'xtrace' | 'pipefail'> = {
  e: 'errexit',
  u: 'nounset',
  x: 'xtrace',
};
const NAMED = new Set(['errexit', 'nounset', 'xtrace', 'pipefail']);

/** Apply `-e`, `+u`, `-o pipefail`... to the shell's options; gives the arguments that were not options. */
export function setOptions(ctx: CommandContext, args: string[], also = ''): { rest: string[]; other: Set<string> } {
  const options = ctx.shell.state.options;
  const other = new Set<string>();
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!/^[-+][A-Za-z]+$/.test(a)) break;
    const on = a[0] === '-';
    for (const letter of a.slice(1)) {
      if (letter === 'o') {
        const name = args[++i];
        if (name === undefined || !NAMED.has(name))
          throw new UsageError(`set: -o ${name ?? ''}: this option is not supported by this shell`, 2);
        options[name as 'pipefail'] = on;
      } else if (OPTION_LETTERS[letter]) options[OPTION_LETTERS[letter]] = on;
      else if (also.includes(letter)) other.add(letter);
      else throw new UsageError(`${a}: this option is not supported by this shell`, 2);
    }
  }
  return { rest: args.slice(i), other };
}

const loop =
  (kind: 'break' | 'continue'): CommandFn =>
  async (ctx) => {
    const n = Number(ctx.args[0] ?? 1);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${ctx.args[0]}: loop count out of range`);
    throw new LoopSignal(kind, n);
  };

/** Builtins that steer the shell: set, return, break, continue, source, eval, let, trap, exit (getopts loads on first use). */
export const controlBuiltins: Record<string, CommandFn> = {
  set: async (ctx) => {
    if (ctx.args.length === 0) {
      for (const [k, v] of [...ctx.shell.state.vars].sort(([a], [b]) => (a < b ? -1 : 1))) ctx.out(`${k}=${v}\n`);
      return 0;
    }
    const { rest } = setOptions(ctx, ctx.args);
    if (rest.length || ctx.args.includes('--')) ctx.shell.state.args.splice(0, ctx.shell.state.args.length, ...rest);
    return 0;
  },
  return: async (ctx) => {
    throw new ReturnSignal(ctx.args[0] === undefined ? ctx.shell.state.status : Number(ctx.args[0]) & 255);
  },
  break: loop('break'),
  continue: loop('continue'),
  source: async (ctx) => {
    const [file, ...args] = ctx.args;
    if (file === undefined) throw new UsageError('filename argument required', 2);
    const text = decodeLossy(await ctx.shell.state.fs.readFile(resolve(ctx, file)));
    const state = ctx.shell.state;
    const saved = args.length ? state.args.splice(0, state.args.length, ...args) : null;
    try {
      return await ctx.shell.runLine(text, ctx);
    } catch (e) {
      if (e instanceof ReturnSignal) return e.code;
      throw e;
    } finally {
      if (saved) state.args.splice(0, state.args.length, ...saved);
    }
  },
  eval: async (ctx) => ctx.shell.runLine(ctx.args.join(' '), ctx),
  let: async (ctx) => {
    let last = 0;
    for (const a of ctx.args) last = evalArithmetic(a, ctx.shell);
    return last === 0 ? 1 : 0;
  },
  trap: async (ctx) => {
    const [action, ...signals] = ctx.args;
    if (action === undefined) return 0;
    for (const sig of signals) {
      const name = sig.replace(/^SIG/, '');
      if (name !== 'EXIT' && name !== '0' && name !== 'ERR' && name !== 'INT' && name !== 'TERM' && name !== 'HUP')
        throw new UsageError(`trap: ${sig}: only EXIT traps are supported by this shell`, 2);
      if (name !== 'EXIT' && name !== '0') continue; // no signals reach a shell that runs in one call
      if (action === '-') ctx.shell.state.traps.delete('EXIT');
      else ctx.shell.state.traps.set('EXIT', action);
    }
    return 0;
  },
  exit: async (ctx) => {
    throw new ExitSignal(ctx.args[0] === undefined ? ctx.shell.state.status : Number(ctx.args[0]) & 255);
  },
};
controlBuiltins['.'] = controlBuiltins.source!;
