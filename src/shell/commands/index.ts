import type { CommandFn, CommandTable } from '../context.js';
import { builtins } from './shell/builtins.js';
import { controlBuiltins } from './shell/control.js';
import { varBuiltins } from './shell/vars.js';
import { fileCommands } from './files/files.js';
import { diff } from './files/diff.js';
import { find } from './files/find.js';
import { ls } from './files/ls.js';
import { grep } from './text/grep.js';
import { sed } from './text/sed.js';
import { sort } from './text/sort.js';
import { textCommands } from './text/text.js';

// The shell's own chunk holds the interpreter and the commands agents type most (ls cat grep sed
// head tail find wc echo cd mkdir rm cp mv sort printf test and their like); every other command
// is a chunk of its own, loaded on its first use, so the shell's first load stays small.

/** A command whose code loads on its first use; later uses call it directly. */
const lazy = (load: () => Promise<CommandFn>): CommandFn => {
  let loaded: CommandFn | undefined;
  return async (ctx) => (loaded ??= await load())(ctx);
};

const declare = (local: boolean) => lazy(async () => (await import('./shell/declare.js')).declare(local));
const host = (name: string) => lazy(async () => (await import('./system/host.js')).hostCommands[name]!);
const which = (name: string) => lazy(async () => (await import('./system/which.js')).whichCommands[name]!);

/** Commands loaded on first use, by name. */
const onDemand: Record<string, CommandFn> = {
  awk: lazy(async () => (await import('./awk/awk.js')).awk),
  jq: lazy(async () => (await import('./jq/jq.js')).jq),
  xargs: lazy(async () => (await import('./files/xargs.js')).xargs),
  read: lazy(async () => (await import('./shell/read.js')).read),
  mapfile: lazy(async () => (await import('./shell/read.js')).mapfile),
  readarray: lazy(async () => (await import('./shell/read.js')).mapfile),
  local: declare(true),
  declare: declare(false),
  typeset: declare(false),
  readonly: declare(false),
  which: which('which'),
  command: which('command'),
  type: which('type'),
  whoami: host('whoami'),
  id: host('id'),
  hostname: host('hostname'),
  uname: host('uname'),
  nl: lazy(async () => (await import('./system/nl.js')).nl),
  getopts: lazy(async () => (await import('./shell/getopts.js')).getopts),
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
  // git's code loads with the first `git`
  git: async (ctx) => (await import('./git/index.js')).git(ctx),
  // the installer loads with the first `npm`
  npm: async (ctx) => (await import('./npm/index.js')).npm(ctx),
};

/** The `node` a host without script workers has: says so, with the exit status of a missing program. */
const nodeUnavailable: CommandFn = async (ctx) => {
  ctx.err('node: not available here: scripts run in a Web Worker, which only a browser host provides\n');
  return 127;
};

/** Every command, built once; a line whose host adds no commands shares it (no command changes the table). */
const ALL: CommandTable = (() => {
  const all: Record<string, CommandFn> = {
    ...builtins,
    ...controlBuiltins,
    ...varBuiltins,
    ...fileCommands,
    ...textCommands,
    ...onDemand,
    ls,
    grep,
    egrep: (ctx) => grep({ ...ctx, args: ['-E', ...ctx.args] }),
    fgrep: (ctx) => grep({ ...ctx, args: ['-F', ...ctx.args] }),
    sed,
    sort,
    find,
    diff,
    node: nodeUnavailable,
  };
  all.bash = all.sh!;
  return new Map(Object.entries(all));
})();

/** Every command the shell has, by name, with the commands a host adds or replaces (such as `node`). */
export function commandTable(extra?: Record<string, CommandFn>): CommandTable {
  if (!extra) return ALL;
  const table = new Map(ALL);
  for (const [name, fn] of Object.entries(extra)) table.set(name, fn);
  return table;
}
