import type { Envelope, Workspace } from '../src/workspace-core.js';
import { forkHostOf } from '../src/snapshots/fork/fork-host.js';
import { ToolError } from '../src/contract/index.js';
import { toToolError } from '../src/fs/tool-error.js';
import type { ChangeNotice, ForkDiff, ForkSummary, WireCallOptions, WireForks } from './protocol.js';

/**
 * The forks of a worker's workspace, loaded on the first fork verb: making, listing, viewing,
 * diffing against the fork point, merging and dropping, every answer an envelope. A fork's
 * changes reach the page's listeners tagged with its name.
 */
export function hostForks(
  parent: () => Promise<Workspace | null>,
  locked: (tool: string) => Envelope<never>,
  emit: (event: ChangeNotice) => void,
  view: (fork: { name: string; ws: Workspace } | null) => void,
  viewing: () => string | null,
): WireForks {
  const open = new Map<string, Workspace>();
  const watch = (name: string, ws: Workspace) => {
    open.set(name, ws);
    ws.changes.onChange((e) => emit({ change_id: e.change_id, tool: e.tool, paths: [...e.paths], workspace: name }));
    return ws;
  };
  // one opening per fork, so calls racing to a fork not yet open (two agents' first calls) share it
  const opening = new Map<string, Promise<Workspace>>();
  const forkOf = async (p: Workspace, name: string): Promise<Workspace> => {
    const known = open.get(name);
    if (known) return known;
    let pending = opening.get(name);
    if (!pending) {
      pending = (async () => {
        await p.forks();
        const host = forkHostOf(p.snapshots ?? undefined);
        if (!host) throw new Error('this workspace has no forks');
        return watch(name, (await host.get(name)) as unknown as Workspace);
      })().finally(() => opening.delete(name));
      opening.set(name, pending);
    }
    return pending;
  };
  const answer = async <R>(tool: string, work: (p: Workspace) => Promise<Envelope<R> | R>): Promise<Envelope<R>> => {
    const p = await parent();
    if (!p) return locked(tool) as Envelope<R>;
    try {
      const out = await work(p);
      return out && typeof out === 'object' && 'ok' in out && 'tool' in out
        ? (out as Envelope<R>)
        : { ok: true, tool, result: out as R };
    } catch (error) {
      return { ok: false, tool, error: toToolError(error).toJSON() };
    }
  };
  const summary = (f: Awaited<ReturnType<Workspace['forks']>>[number]): ForkSummary => ({
    name: f.name,
    id: f.id,
    forked_from: f.forked_from,
    head: f.head,
    created_at: f.created_at,
  });
  return {
    forkCreate: (name) =>
      answer('fork_workspace', async (p) => {
        const ws = await p.fork({ name });
        watch(ws.forkInfo.name, ws);
        return summary({ ...ws.forkInfo, head: ws.forkInfo.forked_from });
      }),
    forkList: () => answer('list_forks', async (p) => ({ forks: (await p.forks()).map(summary), viewing: viewing() })),
    forkUse: (name) =>
      answer('use_fork', async (p) => {
        if (name === null) view(null);
        else view({ name, ws: await forkOf(p, (await p.forks()).find((f) => f.name === name)?.name ?? name) });
        return { viewing: viewing() };
      }),
    forkDiff: (name) =>
      answer('fork_diff', async (p): Promise<Envelope<ForkDiff>> => {
        const ws = (await forkOf(p, name)) as Workspace & { forkInfo?: { forked_from: string } };
        const from = ws.forkInfo?.forked_from ?? (await p.forks()).find((f) => f.name === name)!.forked_from;
        const diff = await ws.call('diff_snapshots', { from });
        if (!diff.ok) return diff as Envelope<never>;
        const r = diff.result as { files: ForkDiff['files']; unified_diff: string };
        return { ok: true, tool: 'fork_diff', result: { name, files: r.files, unified_diff: r.unified_diff } };
      }),
    forkCall: (name, tool, args, options?: WireCallOptions) =>
      answer(typeof tool === 'string' ? tool : String(tool), async (p) => {
        if (!(await p.forks()).some((f) => f.name === name))
          throw new ToolError('NOT_FOUND', `there is no fork named '${String(name).slice(0, 64)}'`);
        const ws = await forkOf(p, name);
        return ws.call(String(tool), args, {
          ...(typeof options?.actor === 'string' ? { actor: options.actor } : {}),
          ...(typeof options?.call_id === 'string' ? { call_id: options.call_id } : {}),
        });
      }),
    forkMerge: (name, dryRun) => answer('merge_workspace', (p) => p.merge(name, { dryRun: dryRun === true })),
    forkDrop: (name) =>
      answer('drop_fork', async (p) => {
        const dropped = await p.dropFork(name);
        if (dropped.ok) {
          open.delete(name);
          if (viewing() === name) view(null);
        }
        return dropped;
      }),
  };
}
