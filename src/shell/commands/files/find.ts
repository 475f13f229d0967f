import { errorText, type CommandContext, type CommandFn } from '../../context.js';
import { resolve, runArgv } from '../util.js';
import { type FindEntry, type FindHost, parseFind } from './find-parse.js';

/** The file find shows as `shown`, stat'ed without following a link; null when it is gone. */
async function entryOf(ctx: CommandContext, abs: string, shown: string, start: string, depth: number) {
  const fs = ctx.shell.state.fs;
  const st = await fs.fullStat(abs);
  if (!st) return null;
  const type: FindEntry['type'] = st.type === 'dir' ? 'dir' : st.type === 'symlink' ? 'symlink' : 'file';
  const name = depth === 0 ? shown : shown.slice(shown.lastIndexOf('/') + 1);
  const entry: FindEntry = {
    abs,
    shown,
    start,
    name: depth === 0 ? name.replace(/\/+$/, '').split('/').pop() || name : name,
    depth,
    type,
    size: st.size,
    mtimeMs: st.mtimeMs,
    // The modes the workspace keeps (git's): executable or not, under the usual umask.
    mode: type === 'file' ? (st.mode & 0o111 ? 0o755 : 0o644) : type === 'dir' ? 0o755 : 0o777,
    empty: async () => (type === 'dir' ? (await fs.readdir(abs)).length === 0 : type === 'file' && st.size === 0),
  };
  return entry;
}

/**
 * find: GNU find's tests, operators and actions over the workspace, walking each start folder in
 * sorted order (GNU find uses directory order). Links are listed, never followed.
 */
export const find: CommandFn = async (ctx) => {
  const starts: string[] = [];
  let k = 0;
  while (k < ctx.args.length && !/^[-!(]./.test(ctx.args[k]!) && !['!', '('].includes(ctx.args[k]!))
    starts.push(ctx.args[k++]!);
  const fs = ctx.shell.state.fs;
  let status = 0;
  // -printf's formatter loads with the first find that names it
  const printf = ctx.args.includes('-printf') ? (await import('./find-printf.js')).findPrintf : () => '';
  const host: FindHost = {
    exec: (argv) => runArgv(ctx, argv, 'find'),
    out: (text) => ctx.out(text),
    printf,
    now: Date.now(),
    mtimeOf: async (path) => {
      const st = await fs.fullStat(resolve(ctx, path));
      return st ? st.mtimeMs : Number.POSITIVE_INFINITY;
    },
    remove: async (e) => {
      try {
        if (e.type === 'dir' && (await fs.readdir(e.abs)).length) {
          ctx.err(`find: cannot delete '${e.shown}': Directory not empty\n`);
          status = 1;
          return false;
        }
        if (e.depth === 0 && (e.shown === '.' || e.shown === './')) return true;
        await fs.remove(e.abs);
        return true;
      } catch (error) {
        ctx.err(`find: cannot delete '${e.shown}': ${errorText(error)}\n`);
        status = 1;
        return false;
      }
    },
  };
  const plan = parseFind(ctx.args.slice(k), host);
  // -newer's reference file is read before the walk: a missing one ends find at once.
  const newer = ctx.args
    .slice(k)
    .flatMap((a, n, all) => (a === '-newer' && all[n + 1] !== undefined ? [all[n + 1]!] : []));
  for (const ref of newer)
    if (!(await fs.fullStat(resolve(ctx, ref)))) {
      ctx.err(`find: '${ref}': No such file or directory\n`);
      return 1;
    }
  const visit = async (abs: string, shown: string, start: string, depth: number): Promise<void> => {
    ctx.shell.checkTime();
    if (plan.quit.now) return;
    const e = await entryOf(ctx, abs, shown, start, depth);
    if (!e) return;
    const evaluate = depth >= plan.minDepth;
    if (evaluate && !plan.depthFirst) await plan.test(e);
    if (e.type === 'dir' && depth < plan.maxDepth && !(e.prune && !plan.depthFirst)) {
      for (const child of await fs.readdir(abs)) {
        if (plan.quit.now) return;
        await visit(
          abs === '/' ? `/${child}` : `${abs}/${child}`,
          shown.endsWith('/') ? `${shown}${child}` : `${shown}/${child}`,
          start,
          depth + 1,
        );
      }
    }
    if (evaluate && plan.depthFirst && !plan.quit.now) await plan.test(e);
  };
  for (const start of starts.length ? starts : ['.']) {
    const abs = resolve(ctx, start);
    if (!(await fs.fullStat(abs).catch(() => null))) {
      ctx.err(`find: '${start}': No such file or directory\n`);
      status = 1;
      continue;
    }
    await visit(abs, start, start, 0);
    if (plan.quit.now) break;
  }
  for (const run of plan.finish) await run();
  return plan.failed.now ? 1 : status;
};
