import type { Envelope } from './contract/index.js';
import type { WorkspaceFs } from './fs/types.js';
import type { ForkHost, ForkInfo, ForkWorkspace } from './snapshots/fork/fork-host.js';
import type { SnapshotStore } from './snapshots/store.js';
import { ToolError } from './contract/index.js';
import { toToolError } from './fs/tool-error.js';
import type { MergeWorkspaceResult } from './tools/merge-workspace.js';

export type { ForkInfo, MergeWorkspaceResult };

/** One region both sides changed, as a merge conflict lists it. */
export interface MergeConflictHunk {
  /** first line of the region at the fork point (1-based) */
  base_start_line: number;
  /** how many lines the region had at the fork point */
  base_line_count: number;
  /** the region as it was at the fork point */
  base: string;
  /** the region in this workspace */
  ours: string;
  /** the region in the fork */
  theirs: string;
}

/** What `ws.merge` answers: `merge_workspace`'s result, named and documented. */
export interface MergeOutcome {
  /** the fork's name */
  fork: string;
  /** true when nothing was written because it was asked as a dry run */
  dry_run: boolean;
  /** false only in a dry run that found conflicts (a real merge with conflicts is PATCH_CONFLICT) */
  clean: boolean;
  /** the files the merge wrote (or would write) */
  files: Array<{
    /** the file's path in this workspace */
    path: string;
    /** what happened to it */
    action: 'added' | 'modified' | 'deleted' | 'renamed';
    /** the old path of a renamed file */
    from?: string;
  }>;
  /** the paths that conflict, each with why and, for text, the regions */
  conflicts: Array<{
    /** the conflicting path */
    path: string;
    /** content, add/add, binary, modify/delete, rename/delete, rename/rename, mode, file/directory */
    kind: string;
    /** what conflicts, in words */
    message: string;
    /** for text, the regions both sides changed */
    hunks?: MergeConflictHunk[];
  }>;
  /** the change the merge made, or null when it made none */
  change_id: string | null;
}

/** What `ws.dropFork` answers. */
export interface DropForkOutcome {
  /** the dropped fork's name */
  dropped: string;
  /** its id */
  id: string;
  /** snapshot objects removed because only the fork (and its own forks) reached them */
  freed_objects: number;
}

/** A fork's workspace: the parent's kind of workspace, with the fork's manifest. */
export type ForkedWorkspace<W> = W & {
  /** the fork's name, id, branch and fork point */
  readonly forkInfo: ForkInfo;
};

// The documented shape and the schema's must stay one shape: each must be assignable to the other.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const mergeShapeMatches: Same<MergeOutcome, MergeWorkspaceResult> = true;
void mergeShapeMatches;

/** What `ws.fork` takes. */
export interface ForkOptions {
  /** the fork's name: 1 to 64 letters, digits, dots, dashes or underscores, unique among the forks */
  name: string;
}

/** A fork as `ws.forks()` lists it: its manifest and the snapshot its branch is at. */
export type ForkListing = ForkInfo & {
  /** the snapshot the fork's branch is at (null when it has none yet) */
  head: string | null;
};

/** The verbs a workspace gets for forking and merging (see Workspace.fork). */
export interface ForkVerbs<W> {
  fork(options: ForkOptions): Promise<ForkedWorkspace<W>>;
  forks(): Promise<ForkListing[]>;
  openFork(fork: string): Promise<ForkedWorkspace<W>>;
  merge(fork: string | { forkInfo: ForkInfo }, options?: { dryRun?: boolean }): Promise<Envelope<MergeOutcome>>;
  dropFork(fork: string | { forkInfo: ForkInfo }): Promise<Envelope<DropForkOutcome>>;
}

/** What the fork verbs need of the workspace that forks. */
export interface ForkDeps<W extends ForkWorkspace> {
  fs: WorkspaceFs;
  toAbs(rel: string): string;
  store: SnapshotStore | null;
  settled(): Promise<void>;
  /** the lock this root's processes share, if any (a drop holds it while it frees objects) */
  lock?: { acquire(): Promise<() => Promise<void>> } | null;
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
      ({ ForkHost }) =>
        new ForkHost<W>({ fs: deps.fs, toAbs: deps.toAbs, store, settled: deps.settled, lock: deps.lock }, deps.make),
    );
    return host;
  };
  const nameOf = (fork: string | { forkInfo: ForkInfo }) =>
    typeof fork === 'string' ? fork : typeof fork?.forkInfo?.id === 'string' ? fork.forkInfo.id : String(fork);
  return {
    fork: async (options) => (await hostOf()).fork(options?.name),
    forks: async () => (deps.store ? (await hostOf()).list() : []),
    openFork: async (fork) => {
      if (typeof fork !== 'string')
        throw new ToolError('INVALID_ARGUMENTS', "openFork takes a fork's name or id, as forks() lists it");
      return (await hostOf()).get(fork);
    },
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
        return {
          ok: true,
          tool: 'drop_fork',
          result: { dropped: info.name, id: info.id, freed_objects: info.freed_objects },
        };
      } catch (error) {
        return { ok: false, tool: 'drop_fork', error: toToolError(error).toJSON() };
      }
    },
  };
}
