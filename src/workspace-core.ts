import type { WorkspaceFs } from './fs/types.js';
import type { ToolDefinition, ToolInfo } from './tools/schema/define.js';
import { validateArgs } from './tools/schema/validate.js';
import type { ImportedFile, ImportResult } from './tools/import-files.js';
import { SnapshotSchedule } from './snapshots/schedule.js';
import { SnapshotStore, type CommitOutcome, type SnapshotOptions } from './snapshots/store.js';
import { createWorkspaceGit, type WorkspaceGit } from './git/index.js';
import { ChangeLog } from './workspace/change-log.js';
import { ToolContext, type CallOptions } from './workspace/context.js';
import { FileWriter } from './workspace/file-writer.js';
import { exportFiles, type ExportResult } from './workspace/export-files.js';
import { ToolError, type Envelope } from './contract/index.js';
import type { CanonicalArgs, CanonicalResult, CanonicalToolName } from './toolsets/canonical.js';
import { toToolError } from './fs/tool-error.js';
import { ReadLedger } from './workspace/ledger.js';
import { PathLocks } from './workspace/locks.js';
import { lexicalPath, PathResolver } from './workspace/paths.js';
import { resolvePolicy, type ResolvedPolicy, type WorkspacePolicy } from './workspace/policy.js';
import type { ForkDeps, ForkVerbs } from './workspace-forks.js';
import { reviewHooks, type BlameResult, type WorkspaceReview } from './review-hooks.js';

export type { Envelope, CallOptions };

/** What `createWorkspace` takes: the backend, where the root is, the policy, the tools and snapshots. */
export interface WorkspaceOptions {
  /** the backend that holds the files */
  fs: WorkspaceFs;
  /** the backend folder that is the workspace root (default `/`) */
  root?: string;
  /** the current folder, relative to the root, where bare names resolve (default the root) */
  cwd?: string;
  /** rules the tools enforce: read before write, stale checks, confirmations, limits */
  policy?: WorkspacePolicy;
  /** the tools `call` offers (default: the canonical toolset) */
  tools?: ToolDefinition[];
  /** git-backed snapshots of every change (default on, after every mutating call); false turns them off */
  snapshots?: SnapshotOptions | false;
  /**
   * A lock shared with other processes that open the same root (the Node host supplies one in
   * `.sandpit/`): each mutating call holds it from its first read to its snapshot, and first takes
   * any commits those processes made. Reads never wait for it.
   */
  processLock?: ProcessLock;
  /** @internal how a fork's workspace is made (createWorkspace sets it; the default has the same tools) */
  forkWith?: (options: WorkspaceOptions) => Workspace;
}

/** Held by one process's changes at a time; `acquire` waits (bounded) and resolves to the release. */
export interface ProcessLock {
  acquire(): Promise<() => Promise<void>>;
  /**
   * Optional: how many times this process has taken the lock afresh (not kept from its own last
   * change). While it stays the same, no other process can have changed the history.
   */
  readonly takes?: number;
}

/** A workspace: `call` runs a tool and answers with an envelope; the rest serves the host (review, import, export, git, snapshots). */
export interface Workspace {
  /** the backend that holds the files */
  readonly fs: WorkspaceFs;
  /** the backend folder that is the workspace root */
  readonly root: string;
  /** the current folder, relative to the root, where bare names resolve */
  readonly cwd: string;
  /** the policy in force, defaults filled in */
  readonly policy: ResolvedPolicy;
  /** every change's summary and full diff, for a reviewer */
  readonly changes: ChangeLog;
  /** what the agent has read, for NOT_READ and STALE_FILE */
  readonly ledger: ReadLedger;
  /**
   * Run a tool. Never throws: every outcome is an envelope. A canonical tool's arguments and
   * result are typed from its schemas; any other tool takes the string form (name the result type with `R`).
   */
  call<N extends CanonicalToolName>(
    tool: N,
    args: CanonicalArgs<N>,
    options?: CallOptions,
  ): Promise<Envelope<CanonicalResult<N>>>;
  /** Run any tool by name, for toolsets beyond the canonical one; `R` names the result type. */
  call<R = Record<string, any>>(tool: string, args?: unknown, options?: CallOptions): Promise<Envelope<R>>;
  /** The tools `call` offers, as plain JSON. */
  listTools(): ToolInfo[];
  /** Register work for close(), such as ending a Node host's background processes. */
  onClose(hook: () => void | Promise<void>): void;
  /** End what the workspace started (hooks run once, newest first); calls still answer afterwards. */
  close(): Promise<void>;
  /** the shadow git repository, or null when snapshots are off */
  readonly snapshots: SnapshotStore | null;
  /** Snapshot changes made behind the tools' back (a process, the user); unchanged files are not re-read. */
  rescan(): Promise<CommitOutcome | null>;
  /** Run several calls as one batch: with `when: 'batch'` they become one snapshot. */
  batch<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Write files from raw bytes, as a person's import from disk does (binary files included): each
   * path confined like a tool's, refused files listed in `skipped`, the rest one change and one
   * snapshot. Never throws.
   */
  importFiles(
    files: ImportedFile[],
    options?: { onProgress?: (done: number, total: number) => void },
  ): Promise<Envelope<ImportResult>>;
  /** Every file's exact bytes (`.sandpit` left out; links listed as skipped), for an export. */
  exportFiles(onProgress?: (done: number) => void): Promise<ExportResult>;
  /** Clone from, push to and pull from a git server (see src/git). */
  readonly git: WorkspaceGit;
  /**
   * Fork the workspace as it is now: a new workspace on the same backend whose files read through
   * to this one's newest snapshot until it writes them (no copy, whatever the size), with its own
   * history branch in the same snapshot store. Rejects with a ToolError (ALREADY_EXISTS,
   * INVALID_ARGUMENTS, NOT_SUPPORTED without snapshots).
   */
  fork: ForkVerbs<Workspace>['fork'];
  /** This workspace's forks, oldest first. */
  forks: ForkVerbs<Workspace>['forks'];
  /**
   * A fork by name or id, as `forks()` lists it, made by this process or any other: the same
   * workspace object while this process has it open, else opened again over its files and branch.
   * Rejects with NOT_FOUND (listing the forks) or NOT_SUPPORTED without snapshots.
   */
  openFork: ForkVerbs<Workspace>['openFork'];
  /**
   * Merge a fork's changes in (merge_workspace): three-way against the fork point, all or nothing,
   * one change that undo takes back; conflicts change nothing and answer PATCH_CONFLICT.
   */
  merge: ForkVerbs<Workspace>['merge'];
  /** Drop a fork: its files, its branch and its own forks go. */
  dropFork: ForkVerbs<Workspace>['dropFork'];
  /** Review by hunk: list, accept and reject (revert) the hunks of recorded changes. */
  readonly review: WorkspaceReview;
  /** Who last wrote each line of a text file: line ranges with change, tool, actor and call id. Never throws. */
  blame(path: string): Promise<Envelope<BlameResult>>;
}

/** Create a workspace over a backend with the given tools (see createWorkspace for the default set). */
export function createWorkspaceCore(options: WorkspaceOptions & { tools: ToolDefinition[] }): Workspace {
  const root = options.root ?? '/';
  const cwd = options.cwd ? lexicalPath(options.cwd.startsWith('./') ? options.cwd : `./${options.cwd}`, '') : '';
  const policy = resolvePolicy(options.policy);
  const paths = new PathResolver(options.fs, root);
  const ledger = new ReadLedger();
  const changes = new ChangeLog();
  const locks = new PathLocks();
  const byName = new Map(options.tools.map((t) => [t.name, t]));
  const closeHooks: Array<() => void | Promise<void>> = [];
  const snapshots =
    options.snapshots === false
      ? null
      : new SnapshotStore(options.fs, (rel) => paths.toAbs(rel), options.snapshots, {
          allowHardLinks: policy.allowHardLinks,
          sharedLock: options.processLock ?? null,
        });
  if (snapshots) closeHooks.push(() => snapshots.stopWatching()); // the change feed lives while the workspace is open
  // when snapshots are taken, and (afterReply) the commits still to run, live in the schedule alone
  const schedule =
    snapshots && new SnapshotSchedule(snapshots, options.snapshots !== false && options.snapshots?.afterReply === true);
  const writer = new FileWriter(options.fs, paths, locks, changes, snapshots, {
    allowGitWrites: policy.allowGitWrites,
  });
  // With afterReply, every entry point waits first for the commits still to run.
  const settled = () => (schedule ? schedule.settled() : Promise.resolve());

  async function call(name: string, args: unknown = {}, callOptions: CallOptions = {}): Promise<Envelope> {
    const toolName = typeof name === 'string' ? name : String(name);
    try {
      if (schedule?.afterReply) await schedule.settled();
      const tool = byName.get(toolName);
      if (!tool) throw unknownTool(toolName, byName);
      // A model shown strict-mode schemas sends null for "absent" and maps as pairs: read them as meant.
      // The converter loads on the first call that could need it (a null, or an array of objects).
      if (mayBeStrict(args))
        args = (await import('./tools/schema/strict-schema.js')).fromStrictArgs(tool.schema, args ?? {});
      tool.precheck?.(args);
      const problems = validateArgs(tool.schema, args);
      if (problems.length > 0) {
        throw new ToolError(
          'INVALID_ARGUMENTS',
          `${tool.name} got invalid arguments: ${problems.map((p) => `${p.path || '(arguments)'} ${p.message}`).join('; ')}`,
          {
            hint: `Arguments must match the schema of ${tool.name}; allowed: ${Object.keys(tool.schema.properties ?? {}).join(', ')}.`,
            problems,
          },
        );
      }
      return { ok: true, tool: tool.name, result: await run(tool, args, callOptions) };
    } catch (error) {
      return { ok: false, tool: toolName, error: toToolError(error).toJSON() };
    }
  }

  async function run<A, R>(tool: ToolDefinition<A, R>, args: A, callOptions: CallOptions = {}): Promise<R> {
    // The workspace's own approver wins (a host that trusts every change); a call's approver fills in only when there is none.
    const callPolicy = callOptions.confirm && !policy.confirm ? { ...policy, confirm: callOptions.confirm } : policy;
    const ctx = new ToolContext<SnapshotStore>(
      options.fs,
      paths,
      cwd,
      callPolicy,
      ledger,
      changes,
      locks,
      tool.name,
      writer,
    );
    ctx.snapshots = snapshots ?? undefined;
    if (callOptions.signal) ctx.signal = callOptions.signal;
    if (callOptions.onProgress) ctx.onProgress = callOptions.onProgress;
    if (callOptions.actor !== undefined) ctx.origin.actor = String(callOptions.actor);
    if (callOptions.call_id !== undefined) ctx.origin.call_id = String(callOptions.call_id);
    ctx.throwIfCancelled();
    if (!tool.mutates) return tool.run(args, ctx);
    const release = options.processLock ? await options.processLock.acquire() : null;
    // the persisted change log is read before the first change, so new change ids go on after its
    await reviewing.journal.beforeChange();
    if (!schedule) {
      try {
        return await tool.run(args, ctx);
      } finally {
        await release?.();
      }
    }
    return schedule.change(tool.name, ctx, () => tool.run(args, ctx), {
      release,
      afterCommit: reviewing.journal.flush,
    });
  }

  const forkDeps: ForkDeps<Workspace> = {
    fs: options.fs,
    toAbs: (rel) => paths.toAbs(rel),
    store: snapshots,
    settled,
    lock: options.processLock,
    make: (fs) => {
      const { afterReply: _later, dir: _dir, ...kept } = options.snapshots || {};
      const forkOptions: WorkspaceOptions = { fs, policy: options.policy, snapshots: kept };
      return options.forkWith
        ? options.forkWith(forkOptions)
        : createWorkspaceCore({ ...forkOptions, tools: options.tools });
    },
    merge: async (args) => {
      try {
        await settled();
        const { mergeWorkspaceTool } = await import('./tools/merge-workspace.js');
        return checked(mergeWorkspaceTool, args);
      } catch (error) {
        return { ok: false, tool: 'merge_workspace', error: toToolError(error).toJSON() };
      }
    },
  };
  // loaded on the first fork verb, so a workspace that never forks (a worker's first load) does not carry it
  let verbs: Promise<ForkVerbs<Workspace>> | null = null;
  const forking = () => (verbs ??= import('./workspace-forks.js').then((m) => m.forkVerbs(forkDeps)));

  /** Run a tool that is not in the toolset (a workspace verb), its arguments checked as call checks them. */
  async function checked<R>(tool: ToolDefinition<any, R>, args: unknown): Promise<Envelope<R>> {
    try {
      const problems = validateArgs(tool.schema, args);
      if (problems.length > 0)
        throw new ToolError('INVALID_ARGUMENTS', `${tool.name} got invalid arguments`, { problems });
      return { ok: true, tool: tool.name, result: await run(tool, args) };
    } catch (error) {
      return { ok: false, tool: tool.name, error: toToolError(error).toJSON() };
    }
  }

  const reviewing = reviewHooks({
    changes,
    fs: options.fs,
    toAbs: (rel) => paths.toAbs(rel),
    run,
    persist: snapshots !== null,
    takes: () => options.processLock?.takes,
    lock: options.processLock ?? null,
    store: snapshots,
  });

  return {
    fork: async (forkOptions) => (await forking()).fork(forkOptions),
    forks: async () => (await forking()).forks(),
    openFork: async (fork) => (await forking()).openFork(fork),
    merge: async (fork, mergeOptions) => (await forking()).merge(fork, mergeOptions),
    dropFork: async (fork) => (await forking()).dropFork(fork),
    review: reviewing.review,
    blame: async (path) => {
      await settled();
      return reviewing.blame(path);
    },
    fs: options.fs,
    root,
    cwd,
    policy,
    changes,
    ledger,
    call: call as Workspace['call'],
    snapshots,
    rescan: async () => {
      await settled();
      return snapshots ? snapshots.rescan() : null;
    },
    batch: (work) => (schedule ? schedule.batch(work) : work()),
    importFiles: async (files, importOptions = {}) => {
      try {
        await settled();
        if (!Array.isArray(files))
          throw new ToolError('INVALID_ARGUMENTS', 'importFiles takes an array of { path, bytes }');
        // loaded with the first import: a person's import from disk, never a model's call
        const { importFilesTool } = await import('./tools/import-files.js');
        return {
          ok: true,
          tool: IMPORT_FILES,
          result: await run(importFilesTool, { files, onProgress: importOptions.onProgress }),
        };
      } catch (error) {
        return { ok: false, tool: IMPORT_FILES, error: toToolError(error).toJSON() };
      }
    },
    exportFiles: (onProgress) => exportFiles(options.fs, paths, onProgress),
    git: createWorkspaceGit(
      { fs: options.fs, toAbs: (rel) => paths.toAbs(rel), store: snapshots, writer },
      () => settled().then(() => reviewing.journal.beforeChange()),
      options.processLock,
    ),
    onClose: (hook) => {
      closeHooks.push(hook);
    },
    close: async () => {
      await settled();
      await reviewing.journal.flush();
      for (const hook of closeHooks.splice(0).reverse())
        await Promise.resolve()
          .then(hook)
          .catch(() => {});
    },
    listTools: () =>
      options.tools.map((t) => ({
        name: t.name,
        ...(t.title ? { title: t.title } : {}),
        description: t.description,
        input_schema: t.schema,
        ...(t.resultSchema ? { output_schema: t.resultSchema } : {}),
        ...(t.annotations ? { annotations: t.annotations } : {}),
      })),
  };
}

/** The envelope name of `importFiles` (the import_files tool's own name). */
const IMPORT_FILES = 'import_files';

/** Whether arguments hold what a strict-mode model sends in place of absent ones or maps: a null, or an array of objects. */
function mayBeStrict(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.some((v) => (v !== null && typeof v === 'object') || mayBeStrict(v));
  return typeof value === 'object' && Object.values(value as object).some(mayBeStrict);
}

function unknownTool(name: string, tools: Map<string, ToolDefinition>): ToolError {
  const known = [...tools.keys()];
  const dotted = name.indexOf('.');
  const owner = dotted > 0 ? tools.get(name.slice(0, dotted)) : undefined;
  if (owner) {
    const method = name.slice(dotted + 1);
    const example = owner.dottedHint?.(method);
    return new ToolError('UNKNOWN_TOOL', `'${name.slice(0, 100)}' is a dotted method name, not a tool`, {
      hint: `Call the tool '${owner.name}' itself and name '${method.slice(0, 60)}' in its arguments${example ? `: ${example}` : ''}.`,
    });
  }
  const near = known.filter((k) => k.includes(name) || name.includes(k) || name.split('.').pop() === k);
  return new ToolError('UNKNOWN_TOOL', `there is no tool named '${name.slice(0, 100)}'`, {
    hint: near.length
      ? `Did you mean ${near.map((n) => `'${n}'`).join(' or ')}? Tools: ${known.join(', ')}.`
      : `Tools: ${known.join(', ')}.`,
  });
}
