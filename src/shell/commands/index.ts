import type { CommandTable } from '../context.js';
import { awk } from './awk.js';
import { builtins } from './builtins.js';
import { fileCommands } from './files.js';
import { diff, find, xargs } from './find.js';
import { grep } from './grep.js';
import { jq } from './jq.js';
import { nodeUnavailable } from './node.js';
import { sed } from './sed.js';
import { systemCommands } from './system/index.js';
import { textCommands } from './text.js';

/** Every command the shell has, by name. */
export function commandTable(): CommandTable {
  const table: CommandTable = new Map(
    Object.entries({
      ...builtins,
      ...fileCommands,
      ...textCommands,
      ...systemCommands,
      grep,
      egrep: (ctx) => grep({ ...ctx, args: ['-E', ...ctx.args] }),
      fgrep: (ctx) => grep({ ...ctx, args: ['-F', ...ctx.args] }),
      sed,
      awk,
      jq,
      find,
      xargs,
      diff,
      node: nodeUnavailable,
      // git's code loads with the first `git`
      git: async (ctx) => (await import('./git/index.js')).git(ctx),
    }),
  );
  table.set('bash', table.get('sh')!);
  return table;
}
