import type { CommandContext } from '../../context.js';

type Subcommand = (ctx: CommandContext, args: string[]) => Promise<number>;

/** Each subcommand loads with its first use, and the installer with it. */
const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  install: async () => (await import('./install.js')).install,
  ci: async () => (await import('./install.js')).ci,
  uninstall: async () => (await import('./install.js')).uninstall,
  ls: async () => (await import('./ls.js')).ls,
};

const ALIASES: Record<string, string> = {
  i: 'install',
  add: 'install',
  'clean-install': 'ci',
  un: 'uninstall',
  rm: 'uninstall',
  remove: 'uninstall',
  r: 'uninstall',
  list: 'ls',
};

/**
 * `npm` without npm: install, ci, uninstall and ls over the registry's HTTP API, written into the
 * workspace as one change. Install scripts are never run (the output lists the packages that
 * have one). Any other subcommand fails loudly, naming what there is.
 */
export async function npm(ctx: CommandContext): Promise<number> {
  const [first, ...rest] = ctx.args;
  if (first === '--version' || first === '-v') {
    ctx.out('10.0.0-sandpit\n');
    return 0;
  }
  const name = first === undefined ? undefined : (ALIASES[first] ?? first);
  const load = name ? SUBCOMMANDS[name] : undefined;
  if (!load) {
    ctx.err(
      `npm error ${first === undefined ? 'no subcommand given' : `'${first}' is not a command this shell's npm has`}: it has install (i, add), ci, uninstall (rm), ls\n`,
    );
    return 1;
  }
  return (await load())(ctx, rest);
}
