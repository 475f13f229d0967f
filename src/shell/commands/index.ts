import type { CommandTable } from '../context.js';
import { awk } from './awk/awk.js';
import { builtins } from './shell/builtins.js';
import { controlBuiltins } from './shell/control.js';
import { mapfile, read } from './shell/read.js';
import { varBuiltins } from './shell/vars.js';
import { fileCommands } from './files/files.js';
import { diff } from './files/diff.js';
import { find, xargs } from './files/find.js';
import { ls } from './files/ls.js';
import { grep } from './text/grep.js';
import { jq } from './jq/jq.js';
import { nodeUnavailable } from './shell/node.js';
import { sed } from './text/sed.js';
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
      awk,
      jq,
      find,
      xargs,
      diff,
      node: nodeUnavailable,
      // git's code loads with the first `git`
      git: async (ctx) => (await import('./git/index.js')).git(ctx),
      // the installer loads with the first `npm`
      npm: async (ctx) => (await import('./npm/index.js')).npm(ctx),
    }),
  );
  table.set('bash', table.get('sh')!);
  return table;
}
