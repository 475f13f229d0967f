import { UsageError, type CommandContext, type CommandFn } from '../../context.js';
import { getopts } from '../util.js';

/** The options each command here parses: the table the flags test reads. */
export const WHICH_FLAGS: Record<string, string> = { which: 'a', command: 'vV', type: 'tpPa' };

const KEYWORDS = new Set([
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'function',
]);

/** Where a command name leads in this shell: its own commands live in /usr/bin, as nowhere else. */
async function find(ctx: CommandContext, name: string): Promise<'keyword' | 'command' | null> {
  if (KEYWORDS.has(name)) return 'keyword';
  return ctx.shell.state.commands.has(name) ? 'command' : null;
}

export const whichCommands: Record<string, CommandFn> = {
  /** `which NAME...`: the path of each command the shell has; status 1 when one is missing. */
  which: async (ctx) => {
    // -a (every match on PATH): each command here has one place, so it prints the same
    const { operands } = getopts(ctx.args, 'a', '', { all: 'a' });
    let missing = 0;
    for (const name of operands) {
      if ((await find(ctx, name)) === 'command') ctx.out(`/usr/bin/${name}\n`);
      else missing++;
    }
    return missing > 0 ? 1 : 0;
  },
  /** `command -v NAME` / `command -V NAME`; `command NAME ARGS` runs the command. */
  command: async (ctx) => {
    const [flag, ...names] = ctx.args;
    if (flag !== undefined && /^-./.test(flag) && flag !== '-v' && flag !== '-V' && flag !== '--')
      throw new UsageError(`${flag}: invalid option`, 2);
    if (flag === '--') return whichCommands.command!({ ...ctx, args: names });
    if (flag === '-v' || flag === '-V') {
      let missing = 0;
      for (const name of names) {
        const kind = await find(ctx, name);
        if (!kind) {
          if (flag === '-V') ctx.err(`command: ${name}: not found\n`);
          missing++;
        } else if (flag === '-v') ctx.out(kind === 'keyword' ? `${name}\n` : `/usr/bin/${name}\n`);
        else ctx.out(kind === 'keyword' ? `${name} is a shell keyword\n` : `${name} is /usr/bin/${name}\n`);
      }
      return missing > 0 ? 1 : 0;
    }
    const fn = flag === undefined ? undefined : ctx.shell.state.commands.get(flag);
    if (!fn) {
      if (flag !== undefined) ctx.err(`command: ${flag}: not found\n`);
      return flag === undefined ? 0 : 127;
    }
    return fn({ ...ctx, name: flag!, args: names });
  },
  /** `type NAME...`: what each name is. */
  type: async (ctx) => {
    // -t: the kind only; -p/-P: the path of a command found on PATH; -a: every match (there is one)
    const { operands, flags } = getopts(ctx.args, 'tpPa');
    let missing = 0;
    for (const name of operands) {
      const kind = await find(ctx, name);
      if (flags.has('t')) {
        if (kind) ctx.out(kind === 'keyword' ? 'keyword\n' : 'file\n');
        else missing++;
      } else if (flags.has('p') || flags.has('P')) {
        if (kind === 'command') ctx.out(`/usr/bin/${name}\n`);
        else if (!kind) missing++;
      } else if (kind === 'keyword') ctx.out(`${name} is a shell keyword\n`);
      else if (kind) ctx.out(`${name} is /usr/bin/${name}\n`);
      else {
        ctx.err(`type: ${name}: not found\n`);
        missing++;
      }
    }
    return missing > 0 ? 1 : 0;
  },
};
