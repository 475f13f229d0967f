import type { CommandFn, CommandTable } from '../context.js';
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

/** A command whose code loads on its first use, so the shell's own first load stays small. */
const lazy =
  (load: () => Promise<CommandFn>): CommandFn =>
  async (ctx) =>
    (await load())(ctx);

/** Commands loaded on first use, by name. */
const onDemand: Record<string, CommandFn> = {
  rg: lazy(async () => (await import('./search/rg.js')).rg),
  tac: lazy(async () => (await import('./text/tac.js')).tac),
  paste: lazy(async () => (await import('./text/paste.js')).paste),
  comm: lazy(async () => (await import('./text/comm.js')).comm),
  expr: lazy(async () => (await import('./shell/expr.js')).expr),
  base64: lazy(async () => (await import('./encode/base64.js')).base64),
  sha256sum: lazy(async () => (await import('./encode/digest.js')).digest),
  sha1sum: lazy(async () => (await import('./encode/digest.js')).digest),
  md5sum: lazy(async () => (await import('./encode/digest.js')).digest),
  xxd: lazy(async () => (await import('./encode/xxd.js')).xxd),
  od: lazy(async () => (await import('./encode/od.js')).od),
  mktemp: lazy(async () => (await import('./system/mktemp.js')).mktemp),
  timeout: lazy(async () => (await import('./system/timeout.js')).timeout),
  date: lazy(async () => (await import('./system/date.js')).date),
  du: lazy(async () => (await import('./files/du.js')).du),
  file: lazy(async () => (await import('./files/file.js')).file),
  stat: lazy(async () => (await import('./files/stat.js')).stat),
  column: lazy(async () => (await import('./text/column.js')).column),
  join: lazy(async () => (await import('./text/join.js')).join),
  ln: lazy(async () => (await import('./files/ln.js')).ln),
  readlink: lazy(async () => (await import('./files/readlink.js')).readlink),
  chmod: lazy(async () => (await import('./files/chmod.js')).chmod),
  tree: lazy(async () => (await import('./files/tree.js')).tree),
  kill: lazy(async () => (await import('./jobs/kill.js')).kill),
  jobs: lazy(async () => (await import('./jobs/kill.js')).jobs),
  wait: lazy(async () => (await import('./jobs/kill.js')).wait),
  tar: lazy(async () => (await import('./archive/tar.js')).tar),
  gzip: lazy(async () => (await import('./archive/gzip.js')).gzip),
  gunzip: lazy(async () => (await import('./archive/gzip.js')).gzip),
  zcat: lazy(async () => (await import('./archive/gzip.js')).gzip),
};

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
      ...onDemand,
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
      // the installer loads with the first `npm`
      npm: async (ctx) => (await import('./npm/index.js')).npm(ctx),
    }),
  );
  table.set('bash', table.get('sh')!);
  return table;
}
