import type { CommandContext, CommandFn } from '../../context.js';

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
    let missing = 0;
    for (const name of ctx.args.filter((a) => !a.startsWith('-'))) {
      if ((await find(ctx, name)) === 'command') ctx.out(`/usr/bin/${name}\n`);
      else missing++;
    }
    return missing > 0 ? 1 : 0;
  },
  /** `command -v NAME` / `command -V NAME`; `command NAME ARGS` runs the command. */
  command: async (ctx) => {
    const [flag, ...names] = ctx.args;
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
    let missing = 0;
    for (const name of ctx.args.filter((a) => !a.startsWith('-'))) {
      const kind = await find(ctx, name);
      if (kind === 'keyword') ctx.out(`${name} is a shell keyword\n`);
      else if (kind) ctx.out(`${name} is /usr/bin/${name}\n`);
      else {
        ctx.err(`type: ${name}: not found\n`);
        missing++;
      }
    }
    return missing > 0 ? 1 : 0;
  },
};
