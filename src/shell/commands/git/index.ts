import { errorText, ExitSignal, TimeoutSignal, UsageError, type CommandContext } from '../../context.js';
import { GitFatal } from './repo.js';

type Subcommand = (ctx: CommandContext, args: string[]) => Promise<number>;

/** Each subcommand's module loads with its first use. */
const SUBCOMMANDS: Record<string, () => Promise<Subcommand>> = {
  init: async () => (await import('./init-config.js')).init,
  config: async () => (await import('./init-config.js')).config,
  status: async () => (await import('./status.js')).status,
  add: async () => (await import('./stage.js')).add,
  rm: async () => (await import('./stage.js')).rm,
  mv: async () => (await import('./stage.js')).mv,
  commit: async () => (await import('./commit.js')).commit,
  diff: async () => (await import('./diff.js')).diff,
  log: async () => (await import('./log.js')).log,
  show: async () => (await import('./log.js')).show,
  branch: async () => (await import('./branch.js')).branch,
  checkout: async () => (await import('./checkout.js')).checkout,
  switch: async () => (await import('./checkout.js')).switchBranch,
  restore: async () => (await import('./checkout.js')).restore,
  reset: async () => (await import('./reset.js')).reset,
  stash: async () => (await import('./stash.js')).stash,
  'rev-parse': async () => (await import('./inspect.js')).revParse,
  'ls-files': async () => (await import('./inspect.js')).lsFiles,
  grep: async () => (await import('./inspect.js')).grep,
  blame: async () => (await import('./blame.js')).blame,
};

const NETWORK: Record<string, string> = {
  clone: 'git_clone',
  fetch: 'git_pull',
  pull: 'git_pull',
  push: 'git_push',
};

/**
 * `git` over isomorphic-git, on the workspace's own repository. Its writes to `.git` go through
 * the workspace's write path with the git command's capability; hooks and programs named in the
 * config are never run. A subcommand or option it does not have fails loudly, naming it.
 */
export async function git(ctx: CommandContext): Promise<number> {
  const args = [...ctx.args];
  while (args[0] === '--no-pager' || args[0] === '-P' || args[0] === '--no-optional-locks') args.shift();
  if (args[0] === '-C' || args[0] === '-c') {
    ctx.err(`git: option '${args[0]}' is not supported by this shell's git\n`);
    return 129;
  }
  const name = args.shift();
  if (name === undefined || name === '--help' || name === 'help') {
    ctx.out(`usage: git <command> [<args>]\n\nThis shell's git has: ${Object.keys(SUBCOMMANDS).join(', ')}\n`);
    return name === undefined ? 1 : 0;
  }
  if (name === '--version' || name === 'version') {
    ctx.out('git version 2.0.0 (sandpit shell, isomorphic-git)\n');
    return 0;
  }
  if (NETWORK[name]) {
    ctx.err(
      `git: '${name}' does not run in this shell, which holds no credentials: use the workspace's ${NETWORK[name]} verb (the Git tab), which asks for approval and uses its tokens\n`,
    );
    return 1;
  }
  const load = SUBCOMMANDS[name];
  if (!load) {
    ctx.err(
      `git: '${name}' is not a git command this shell supports. Supported: ${Object.keys(SUBCOMMANDS).join(', ')}\n`,
    );
    return 1;
  }
  try {
    return await (await load())(ctx, args);
  } catch (error) {
    if (error instanceof GitFatal) {
      ctx.err(error.message.includes('\nfatal: ') ? `${error.message}\n` : `fatal: ${error.message}\n`);
      return error.status;
    }
    if (error instanceof UsageError) {
      ctx.err(`error: ${error.message}\n`);
      return error.status;
    }
    if (error instanceof TimeoutSignal || error instanceof ExitSignal) throw error;
    // a filesystem error's text never holds a host path (errorText keeps only its code's meaning)
    ctx.err(`fatal: ${name}: ${errorText(error)}\n`);
    return 128;
  }
}
