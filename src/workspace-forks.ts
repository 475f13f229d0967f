import type { Envelope } from './contract/index.js';
import type { WorkspaceFs } from './fs/types.js';
import type { ForkHost, ForkInfo, ForkWorkspace } from './snapshots/fork/fork-host.js';
import type { SnapshotStore } from './snapshots/store.js';
import { ToolError } from './contract/index.js';
import { toToolError } from './fs/tool-error.js';
import type { MergeWorkspaceResult } from './tools/merge-workspace.js';

export type { ForkInfo, MergeWorkspaceResult };

/** What `ws.fork` takes. */
export interface ForkOptions {
  /** the fork's name: 1 to 64 letters, digits, dots, dashes or underscores, unique among the forks */
  name: string;
}

/** A fork as `ws.forks()` lists it: its manifest and the snapshot its branch is at. */
export type ForkListing = ForkInfo & { head: string | null };

/** The verbs a workspace gets for forking and merging (see Workspace.fork). */
export interface ForkVerbs<W> {
  fork(options: ForkOptions): Promise<W & { readonly forkInfo: ForkInfo }>;
  forks(): Promise<ForkListing[]>;
  merge(fork: string | { forkInfo: ForkInfo }, options?: { dryRun?: boolean }): Promise<Envelope<MergeWorkspaceResult>>;
  dropFork(fork: string | { forkInfo: ForkInfo }): Promise<Envelope<{ dropped: string; id: string }>>;
}

/** What the fork verbs need of the workspace that forks. */
export interface ForkDeps<W extends ForkWorkspace> {
  fs: WorkspaceFs;
  toAbs(rel: string): string;
  store: SnapshotStore | null;
  settled(): Promise<void>;
  /** make the workspace over a fork's files */
  make(fs: WorkspaceFs, info: ForkInfo): W;
  /** run merge_workspace on the workspace (as one change, snapshot and all) */
  merge(args: { fork: string; dry_run: boolean }): Promise<Envelope<MergeWorkspaceResult>>;
}

/**
 * The fork verbs of one workspace. The fork code loads on first use, so a workspace that never
 * forks (a browser worker's first load) does not carry it.
 */
export function forkVerbs<W extends ForkWorkspace>(deps: ForkDeps<W>): ForkVerbs<W> {
  let host: Promise<ForkHost<W>> | null = null;
  const hostOf = () => {
    const store = deps.store;
    if (!store)
      return Promise.reject(
        new ToolError('NOT_SUPPORTED', 'forks need snapshots, which are turned off for this workspace', {
          hint: 'Create the workspace with snapshots on to fork and merge it.',
        }),
      );
    host ??= import('./snapshots/fork/fork-host.js').then(
      ({ ForkHost }) => new ForkHost<W>({ fs: deps.fs, toAbs: deps.toAbs, store, settled: deps.settled }, deps.make),
    );
    return host;
  };
  const nameOf = (fork: string | { forkInfo: ForkInfo }) =>
    typeof fork === 'string' ? fork : typeof fork?.forkInfo?.id === 'string' ? fork.forkInfo.id : String(fork);
  return {
    fork: async (options) => (await hostOf()).fork(options?.name),
    forks: async () => (deps.store ? (await hostOf()).list() : []),
    merge: async (fork, options = {}) => {
      try {
        await hostOf();
      } catch (error) {
        return { ok: false, tool: 'merge_workspace', error: toToolError(error).toJSON() };
      }
      return deps.merge({ fork: nameOf(fork), dry_run: options?.dryRun === true });
    },
    dropFork: async (fork) => {
      try {
        await deps.settled();
        const info = await (await hostOf()).drop(nameOf(fork));
        return { ok: true, tool: 'drop_fork', result: { dropped: info.name, id: info.id } };
      } catch (error) {
        return { ok: false, tool: 'drop_fork', error: toToolError(error).toJSON() };
      }
    },
  };
}
