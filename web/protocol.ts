import type { BackendKind } from '../src/fs/backends.js';
import type {
  CloneOptions,
  GitCredentials,
  GitProgress,
  PullOptions,
  PushOptions,
  WorkspaceGit,
} from '../src/git/index.js';
import type { SnapshotOptions } from '../src/snapshots/store.js';
import type { ChangeDetail } from '../src/workspace/change-log.js';
import type { ApprovalRequest, ConfirmAction, WorkspacePolicy } from '../src/workspace/policy.js';
import type { Envelope, Workspace } from '../src/workspace-core.js';
import type { BlameResult, Hunk, HunkFilter, RejectResult, ReviewOptions } from '../src/review-hooks.js';
import type { ReviewNote } from '../src/workspace/review/notes.js';
import type { PreviewEntry } from './preview/read-file.js';
import type {
  PreviewAnswerRequest,
  PreviewChannelContext,
  PreviewChannelPort,
  PreviewPort,
} from './preview/messages.js';
import type { DropForkOutcome, MergeOutcome } from '../src/workspace-forks.js';

export type { BackendKind };

/** The policy as it crosses the worker boundary: plain JSON, with `confirm` replaced by a flag. */
export type WirePolicy = Omit<WorkspacePolicy, 'confirm'> & { confirm?: boolean };

/**
 * The tool surfaces a worker offers to its callers: the canonical tools, or seed 004's cowork
 * skill (whose deletes and changes outside the artifact folder ask the page's approver).
 */
export type WorkerToolset = 'canonical' | 'cowork';

export interface WireOpenOptions {
  backend: BackendKind;
  /** names the storage: two workspaces with different names never share files */
  name: string;
  policy?: WirePolicy;
  /** the tools `listTools` offers (default canonical); the canonical tools still answer the page's own calls */
  toolset?: WorkerToolset;
  /** cowork's artifact folder, relative to the root: changes inside it need no approval */
  artifactDir?: string;
  snapshots?: SnapshotOptions | false;
  /** the registry the shell's `npm` uses when `.npmrc` names none */
  npmRegistry?: string;
}

/** A change as a UI needs it to refresh: which call made it and which paths it touched. */
export interface ChangeNotice {
  /** the change, for `change(id)` */
  change_id: string;
  /** the tool that made it */
  tool: string;
  /** the paths it touched */
  paths: string[];
  /** the fork it happened in (absent: the workspace itself) */
  workspace?: string;
}

/** A fork as the page lists it. */
export interface ForkSummary {
  /** the name it was given */
  name: string;
  /** its unique id */
  id: string;
  /** the parent's snapshot it started from */
  forked_from: string;
  /** the snapshot its branch is at */
  head: string | null;
  /** when it was made (ISO 8601) */
  created_at: string;
}

/** The forks of the open workspace, and which one the calls now go to. */
export interface ForkView {
  /** every fork of the workspace */
  forks: ForkSummary[];
  /** the fork the calls go to, or null for the workspace itself */
  viewing: string | null;
}

/** One file a fork changed, with its line counts. */
export interface ForkDiffFile {
  /** the file's path in the workspace */
  path: string;
  /** how it changed: added, modified or deleted */
  status: string;
  /** lines the fork added */
  added_lines: number;
  /** lines the fork removed */
  removed_lines: number;
}

/** A fork's changes since its fork point, as `diff_snapshots` answers them. */
export interface ForkDiff {
  /** the fork's name */
  name: string;
  /** each changed file with its line counts */
  files: ForkDiffFile[];
  /** the whole diff */
  unified_diff: string;
}

/**
 * Forks across the boundary, as envelopes (see `Workspace.fork`). `forkUse` picks which one the
 * page works on: calls, changes, review, blame and the preview then answer from it; git and the
 * storage stay the workspace's own.
 */
export interface WireForks {
  /** make a fork of the workspace as it is now */
  forkCreate(name: string): Promise<Envelope<ForkSummary>>;
  /** the forks, oldest first, and which one the page works on (null: the workspace itself) */
  forkList(): Promise<Envelope<ForkView>>;
  /** work on a fork, or on the workspace itself with null */
  forkUse(name: string | null): Promise<Envelope<Pick<ForkView, 'viewing'>>>;
  /** a fork's diff against its fork point */
  forkDiff(name: string): Promise<Envelope<ForkDiff>>;
  /** merge a fork into the workspace (all or nothing; PATCH_CONFLICT changes nothing) */
  forkMerge(name: string, dryRun?: boolean): Promise<Envelope<MergeOutcome>>;
  /** drop a fork: its files and its branch go */
  forkDrop(name: string): Promise<Envelope<DropForkOutcome>>;
  /** run a tool in a fork, whichever one the page works on (an agent run per fork, side by side) */
  forkCall(name: string, tool: string, args?: unknown, options?: WireCallOptions): Promise<Envelope>;
}

/**
 * What a background task tells the page: a line it wrote to its notify file, or its end (then
 * `text` is the exit note: how it ended and where to read its output). An agent run takes these
 * as `[info: ...]` notes; a waking one starts an idle run's next turn.
 */
export interface TaskNoteEvent {
  /** the task, as run_command's `task_id` named it */
  task_id: string;
  /** the note as the model reads it */
  text: string;
  /** starts an idle run (a `{"wake": true}` line, every exit) */
  wake: boolean;
  /** this is the task's end: it no longer keeps a run waiting */
  ended: boolean;
  /** at its end, the change its writes became (the run's own change, not someone else's) */
  change_id?: string;
}

export interface OpenInfo {
  backend: BackendKind;
  name: string;
  /** true while another tab holds this workspace: calls then fail with IO_ERROR */
  locked: boolean;
}

/** A synchronous `Workspace` method as it is answered from another thread: the same arguments, a promise of the same result. */
export type Answered<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The progress callback of `Workspace.importFiles`, which crosses as its own argument (a comlink proxy). */
export type ImportProgress = NonNullable<NonNullable<Parameters<Workspace['importFiles']>[1]>['onProgress']>;

/**
 * The verbs of a `Workspace` that cross the worker boundary, typed from the `Workspace` interface
 * itself, so the two cannot drift. Arguments and results travel by structured clone: envelopes are
 * plain JSON and file bytes stay `Uint8Array`. Callbacks cannot sit inside a cloned object, so
 * each one travels as its own argument, a comlink proxy.
 */
export interface WorkspaceVerbs {
  /** Run a tool in the worker; resolves to its envelope. */
  call: Workspace['call'];
  /** The tools `call` offers. */
  listTools: Answered<Workspace['listTools']>;
  /** the change log's summaries; `change(id)` adds the unified diff */
  changes: Answered<Workspace['changes']['list']>;
  /** One change with its unified diff, or null when it is unknown. */
  change(id: string): Promise<ChangeDetail | null>;
  /**
   * Write files from their bytes (an import from disk, binary files included) as one change and
   * one snapshot; refused files come back in `skipped`.
   */
  importFiles(
    files: Parameters<Workspace['importFiles']>[0],
    onProgress?: ImportProgress,
  ): ReturnType<Workspace['importFiles']>;
  /** Every file's exact bytes, Sandpit's own `.sandpit` left out; links are listed as skipped. */
  exportFiles(): ReturnType<Workspace['exportFiles']>;
  /** Close the workspace in the worker (its hooks run once). */
  close: Workspace['close'];
}

/** The progress listener of a call (`CallOptions.onProgress`), which crosses as its own argument (a comlink proxy). */
export type CallProgress = (done: number, total?: number, message?: string) => void;

/** Who makes a call, as it crosses the boundary: the change log and blame keep both. */
export interface WireCallOptions {
  /** who asks (an agent's name, a person) */
  actor?: string;
  /** the caller's id of this call (a model's tool-call id) */
  call_id?: string;
}

/**
 * The review desk and blame across the boundary, as envelopes (see `Workspace.review`). An agent
 * run in the page holds the desk by token; release and drain apply what queued and answer the
 * notes for the run's inbox.
 */
export interface WireReview {
  reviewHunks(filter?: HunkFilter): Promise<Envelope<{ hunks: Hunk[] }>>;
  reviewAccept(ids: string[]): Promise<Envelope<{ accepted: string[] }>>;
  reviewReject(ids: string[], reason: string, options?: ReviewOptions): Promise<Envelope<RejectResult>>;
  blame(path: string): Promise<Envelope<BlameResult>>;
  /** start holding verdicts for an agent run; answers the hold's token */
  reviewHold(): Promise<number>;
  /** end a hold, apply what queued, and take the notes */
  reviewRelease(token: number): Promise<ReviewNote[]>;
  /** apply what queued and take the notes (between an agent's calls) */
  reviewDrain(): Promise<ReviewNote[]>;
}

/** The git verbs a worker answers. */
export type GitVerb = keyof WorkspaceGit;

/** Git options as they cross the worker boundary: callbacks are sent separately, as proxies. */
export type WireGitOptions = Omit<Partial<CloneOptions> & PushOptions & PullOptions, 'onProgress' | 'auth'> & {
  auth?: GitCredentials;
};

/** What the worker exposes through comlink: the workspace verbs, plus opening, change events and git. */
export interface WorkerApi extends Omit<WorkspaceVerbs, 'call'>, WireReview, WireForks {
  /**
   * Run a tool in the worker; `options` (plain JSON) names who asks; `onProgress`, a comlink proxy,
   * hears a long call's progress (an install's packages), every report before the envelope.
   */
  call: (tool: string, args?: unknown, options?: WireCallOptions, onProgress?: CallProgress) => Promise<Envelope>;
  open(
    options: WireOpenOptions,
    confirm?: (paths: string[], action: ConfirmAction, request: ApprovalRequest) => Promise<boolean>,
  ): Promise<OpenInfo>;
  /**
   * Swap the tools (and the policy that goes with them) over the same storage: the files, the
   * snapshots and the lock stay; only the next call meets the new tools.
   */
  retool(
    options: Pick<WireOpenOptions, 'toolset' | 'artifactDir' | 'policy'>,
    confirm?: (paths: string[], action: ConfirmAction, request: ApprovalRequest) => Promise<boolean>,
  ): Promise<void>;
  subscribe(listener: (event: ChangeNotice) => void): Promise<void>;
  /** Hear the background tasks' notes and ends (the workspace's run_command starts them with `background: true`). */
  subscribeTasks(listener: (event: TaskNoteEvent) => void): Promise<void>;
  /**
   * A git verb on the hosted workspace. `options` is plain JSON (credentials in it are used for
   * this request only); `onProgress` and `auth` are comlink proxies that stay in the page.
   */
  git<V extends GitVerb>(
    verb: V,
    options: WireGitOptions,
    onProgress?: (event: GitProgress) => void,
    auth?: (url: string) => Promise<GitCredentials | undefined>,
  ): ReturnType<WorkspaceGit[V]>;
  /** One file's bytes for the live preview (read-only, confined, `.sandpit` never served). */
  previewEntry(path: string): Promise<PreviewEntry>;
  /** Answer one of the live preview's requests on the Service Worker's `port`, serving ahead what it leads to; resolves with the problems found. */
  previewAnswer(request: PreviewAnswerRequest, port: PreviewPort): Promise<string[]>;
  /**
   * Answer the preview Service Worker's requests that come on `port` (a direct channel's end) as
   * `previewAnswer` does, with `context` for what each request does not carry; the problems found
   * go to `report`, a comlink proxy in the page.
   */
  previewConnect(
    port: PreviewChannelPort,
    context: PreviewChannelContext,
    report: (problems: string[]) => void,
  ): Promise<void>;
  /** Load and run the preview's file server and sucrase on sample modules, until the first preview request comes. */
  previewWarm(): Promise<void>;
}

/**
 * The one message a worker sends outside comlink: `{ type: WARM_MESSAGE, ok }` once the code it
 * loads on first use is all fetched (ok) or some of it could not be (a page offline too early).
 */
export const WARM_MESSAGE = 'sandpit:warm';
export interface WarmMessage {
  type: typeof WARM_MESSAGE;
  ok: boolean;
}
