import { decodeLossy } from '../../bytes.js';
import { UsageError, type CommandFn } from '../../context.js';
import { resolve } from '../util.js';
import { setOptions } from './control.js';

/**
 * `sh`/`bash` as a new process: `-c COMMAND [NAME [ARGS]]`, `FILE [ARGS]`, or a script on stdin;
 * `-e -u -x -o pipefail` first. It sees exported variables only, and its `exit` ends only it.
 */
export const runShellCommand: CommandFn = async (ctx) => {
  const child = ctx.shell.child(ctx.env);
  const childCtx = { ...ctx, shell: child };
  const { rest, other } = setOptions(childCtx, ctx.args, 'c');
  let src: string;
  let name = ctx.name;
  let args: string[];
  if (other.has('c')) {
    if (rest[0] === undefined) throw new UsageError('-c: option requires an argument', 2);
    src = rest[0];
    if (rest[1] !== undefined) name = rest[1];
    args = rest.slice(2);
  } else if (rest[0] !== undefined) {
    try {
      src = decodeLossy(await ctx.shell.state.fs.readFile(resolve(ctx, rest[0])));
    } catch {
      ctx.err(`${ctx.name}: ${rest[0]}: No such file or directory\n`);
      return 127;
    }
    name = rest[0];
    args = rest.slice(1);
  } else {
    src = ctx.stdin;
    args = [];
  }
  child.state.vars.set('0', name);
  child.state.args.push(...args);
  return child.runMain(src, { stdin: ctx.stdin, out: ctx.out, err: ctx.err });
};
