import { UsageError, type CommandContext, type CommandFn } from '../../context.js';

/** What the browser shell says about the machine it pretends to be: one user, one host, Linux-like. */
const user = (ctx: CommandContext) => ctx.env.get('USER') ?? 'user';

/** The options each command here parses (whoami and hostname take none): the table the flags test reads. */
export const HOST_FLAGS: Record<string, string> = { id: 'ugGn', uname: 'snrvmoa' };

export const hostCommands: Record<string, CommandFn> = {
  whoami: async (ctx) => {
    if (ctx.args.length > 0)
      throw new UsageError(
        ctx.args[0]!.startsWith('-')
          ? `invalid option -- '${ctx.args[0]!.slice(1)}'`
          : `extra operand '${ctx.args[0]}'`,
      );
    ctx.out(`${user(ctx)}\n`);
    return 0;
  },
  id: async (ctx) => {
    const name = user(ctx);
    const flags = ctx.args.join('').replace(/-/g, '');
    for (const f of flags) if (!'ugGn'.includes(f)) throw new UsageError(`invalid option -- '${f}'`);
    if (/[ugG]/.test(flags)) ctx.out(flags.includes('n') ? `${name}\n` : '1000\n');
    else ctx.out(`uid=1000(${name}) gid=1000(${name}) groups=1000(${name})\n`);
    return 0;
  },
  hostname: async (ctx) => {
    if (ctx.args.length > 0) throw new UsageError('this shell cannot change or query more than the host name');
    ctx.out(`${ctx.env.get('HOSTNAME') ?? 'sandpit'}\n`);
    return 0;
  },
  uname: async (ctx) => {
    const parts = {
      s: 'Linux',
      n: ctx.env.get('HOSTNAME') ?? 'sandpit',
      r: '6.0.0-sandpit',
      v: '#1 SMP',
      m: 'x86_64',
      o: 'GNU/Linux',
    };
    const flags = ctx.args.join('').replace(/-/g, '');
    for (const f of flags) if (!'snrvmoa'.includes(f)) throw new UsageError(`invalid option -- '${f}'`);
    const want = flags.includes('a') ? 'snrvmo' : flags || 's';
    ctx.out(
      `${[...'snrvmo']
        .filter((k) => want.includes(k))
        .map((k) => parts[k as keyof typeof parts])
        .join(' ')}\n`,
    );
    return 0;
  },
};
