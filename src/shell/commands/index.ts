import type { CommandTable } from '../context.js';
import { awk } from './awk/awk.js';
import { builtins } from './shell/builtins.js';
import { controlBuiltins } from './shell/control.js';
import { mapfile, read } from './shell/read.js';
import { varBuiltins } from './shell/vars.js';
import { fileCommands } from './files/files.js';
import { diff } from './files/diff.js';
import { find } from './files/find.js';
import { xargs } from './files/xargs.js';
import { ls } from './files/ls.js';
import { grep } from './text/grep.js';
import { jq } from './jq/jq.js';
import { nodeUnavailable } from './shell/node.js';
import { sed } from './text/sed.js';
import { sort } from './text/sort.js';
import { systemCommands } from './system/index.js';
import { textCommands } from './text/text.js';

/** Every command the shell has, by name. */
export function commandTable(): CommandTable {
  const table: CommandTable = new Map(
    Object.entries({
      ...builtins,
      ...controlBuiltins,
      ...varBuiltins,
      read,
      mapfile,
      readarray: mapfile,
      ...fileCommands,
      ...textCommands,
      ...systemCommands,
      ls,
      grep,
      egrep: (ctx) => grep({ ...ctx, args: ['-E', ...ctx.args] }),
      fgrep: (ctx) => grep({ ...ctx, args: ['-F', ...ctx.args] }),
      sed,
      sort,
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
