import { proxy, releaseProxy, transfer, wrap, type Remote } from 'comlink';
import type { Envelope, Workspace } from '../src/workspace-core.js';
import type { WorkspacePolicy } from '../src/workspace/policy.js';
import type { SnapshotOptions } from '../src/snapshots/store.js';
import {
  WARM_MESSAGE,
  type BackendKind,
  type CallProgress,
  type ChangeNotice,
  type TaskNoteEvent,
  type GitVerb,
  type WarmMessage,
  type WorkerApi,
  type WorkerToolset,
  type WireCallOptions,
  type WireForks,
  type WorkspaceVerbs,
} from './protocol.js';
import type { CloneOptions, GitAuth, PushOptions } from '../src/git/index.js';
import type { PreviewEntry } from './preview/read-file.js';
import type {
  PreviewAnswerRequest,
  PreviewChannelContext,
  PreviewChannelPort,
  PreviewPort,
} from './preview/messages.js';
import type { BlameResult } from '../src/review-hooks.js';
import { plainCallOptions, remoteReview, type RemoteReview } from './client-review.js';

/**
 * The part of the DOM's `Worker` this entry's types name: pass a real `Worker`. Declared here so
 * that code importing `sandpit-workspace/web` type-checks without the DOM library.
 */
export interface ModuleWorker {
  /** send a message to the worker */
  postMessage(message: unknown, transfer?: unknown[]): void;
  /** end the worker at once */
  terminate(): void;
}

export interface ConnectOptions {
  /** where the worker keeps the files */
  backend: BackendKind;
  /** names the storage (default `default`); the same name in another tab is the same workspace */
  name?: string;
  /** `confirm` runs here in the page; everything else is sent to the worker as JSON */
  policy?: WorkspacePolicy;
  /** git-backed snapshots (default on); false turns them off */
  snapshots?: SnapshotOptions | false;
  /**
   * The registry the shell's `npm` fetches from when the project's `.npmrc` names none (default:
   * the public npm registry). Requests go there only when an install runs.
   */
  npmRegistry?: string;
  /** the tools `listTools` offers: `canonical` (default) or `cowork`, whose confirmations go to `policy.confirm` */
  toolset?: WorkerToolset;
  /** cowork's artifact folder, relative to the root: changes inside it need no approval */
  artifactDir?: string;
  /** the worker to use: a Worker, or the URL of a module worker script (default: the bundled web/worker) */
  worker?: ModuleWorker | URL | string;
}

/**
 * A workspace running in a Web Worker, as the page sees it: the verbs of `Workspace` (see
 * {@link WorkspaceVerbs}) answered from the worker, plus change events. `call` resolves to an
 * envelope and rejects only when the worker itself is gone.
 */
export interface RemoteWorkspace extends WorkspaceVerbs {
  /** where the worker keeps the files */
  readonly backend: BackendKind;
  /** the storage's name */
  readonly name: string;
  /** true when another tab held the workspace at connect time (calls fail with IO_ERROR until it lets go) */
  readonly locked: boolean;
  /**
   * Clone, push, pull and probe in the worker, as `workspace.git` does. `onProgress` and an `auth`
   * callback run here in the page; credentials are never kept by the worker.
   */
  readonly git: Workspace['git'];
  /** Run a tool in the worker; `options` names who asks (kept by the change log and blame). */
  call: Workspace['call'];
  /** Review by hunk in the worker; runAgent holds it for a run and reads its notes, as with a Workspace. */
  readonly review: RemoteReview;
  /** Who last wrote each line of a file (see `Workspace.blame`). */
  blame(path: string): Promise<Envelope<BlameResult>>;
  /**
   * Fork, view, diff, merge and drop forks in the worker (see `Workspace.fork`). After
   * `use(name)` calls, changes, review, blame and the preview answer from that fork; `use(null)`
   * goes back to the workspace itself.
   */
  readonly forks: RemoteForks;
  /** Called after every change with its id and paths, so a UI can refresh. Returns an unsubscribe. */
  onChange(listener: (event: ChangeNotice) => void): () => void;
  /** Called for each note a background task writes and for its end, as an agent inbox takes them. Returns an unsubscribe. */
  onTask(listener: (event: TaskNoteEvent) => void): () => void;
  /** One file's bytes as stored, for a live preview: read-only, confined like a tool's path, `.sandpit` never served. */
  previewEntry(path: string): Promise<PreviewEntry>;
  /**
   * Answer one request of a live preview in the worker, where the files are: the file server
   * (TypeScript, JSX, CommonJS packages) runs there and writes the answer, and what it leads to
   * (a page's scripts, their module graph), straight to `port`, the preview Service Worker's end
   * of its channel. Resolves, once all is sent, with the problems found, in a person's words.
   */
  previewAnswer(request: PreviewAnswerRequest, port: PreviewPort): Promise<string[]>;
  /**
   * Give the worker its end of a direct channel to the preview Service Worker: the Service Worker
   * posts each request, with its reply port, on the other end, and the worker answers it as
   * `previewAnswer` would, with no main thread in between. `context` is what the requests do not
   * carry (the previewed folder: connect again when it changes); the problems found go to
   * `onProblems`. A new channel for the same `context.prefix` ends the one before. Resolves once
   * the worker listens.
   */
  previewConnect(
    port: PreviewChannelPort,
    context: PreviewChannelContext,
    onProblems: (problems: string[]) => void,
  ): Promise<void>;
  /**
   * Warm the live preview's code in the worker (its file server, sucrase) on sample modules, so
   * the first preview does not compile it: call it as a preview starts (its Service Worker
   * starting), and the compile overlaps that. It stops when the preview's first request comes.
   */
  previewWarm(): Promise<void>;
  /**
   * Swap the toolset and policy over the same storage: files, snapshots and history stay, and the
   * next call meets the new tools (as a new `connectWorkspace` would, without reopening).
   */
  retool(options: Pick<ConnectOptions, 'toolset' | 'artifactDir' | 'policy'>): Promise<void>;
  /**
   * Let go of the workspace (another tab may then open it) and end the worker. A call still on its
   * way then rejects, as every call made after it does.
   */
  close(): Promise<void>;
}

/** The worker's fork verbs as the page calls them: every answer an envelope of plain JSON. */
export interface RemoteForks {
  /** make a fork of the workspace as it is now */
  create: WireForks['forkCreate'];
  /** the forks, oldest first, and which one is in use */
  list: WireForks['forkList'];
  /** work on a fork, or on the workspace itself with null */
  use: WireForks['forkUse'];
  /** a fork's diff against its fork point */
  diff: WireForks['forkDiff'];
  /** merge a fork in: one change when clean; PATCH_CONFLICT with the paths and regions, nothing changed */
  merge: WireForks['forkMerge'];
  /** drop a fork */
  drop: WireForks['forkDrop'];
  /** run a tool in a fork, whichever one the page works on (an agent run per fork, side by side); `actor` and `call_id` as in `call` */
  call(name: string, tool: string, args?: unknown, options?: { actor?: string; call_id?: string }): Promise<Envelope>;
}

/**
 * How a worker's start went: `warm` once it has fetched all the code it loads on first use (the
 * page may go offline and still open any backend in it), `partial` when some of that could not
 * come (it fetches it again when needed), `failed` when the worker itself did not load: such a
 * worker never answers, so start another.
 */
export type WarmState = 'warm' | 'partial' | 'failed';

/** Resolves to how the worker's start went (see {@link WarmState}); call it right after creating the worker. */
export function whenWarm(worker: ModuleWorker): Promise<WarmState> {
  const target = worker as unknown as Worker;
  return new Promise((resolve) => {
    const done = (state: WarmState) => {
      target.removeEventListener('message', onMessage);
      target.removeEventListener('error', onError);
      resolve(state);
    };
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<WarmMessage> | null;
      if (data?.type === WARM_MESSAGE) done(data.ok === true ? 'warm' : 'partial');
    };
    const onError = () => done('failed');
    target.addEventListener('message', onMessage);
    target.addEventListener('error', onError);
  });
}

/** The tools and policy as they cross: plain JSON, and the approver as its own comlink proxy. */
function wireTools(options: Pick<ConnectOptions, 'toolset' | 'artifactDir' | 'policy'>) {
  const { confirm, ...policy } = options.policy ?? {};
  return {
    wire: {
      policy: { ...policy, ...(confirm ? { confirm: true } : {}) },
      ...(options.toolset === undefined ? {} : { toolset: options.toolset }),
      ...(options.artifactDir === undefined ? {} : { artifactDir: options.artifactDir }),
    },
    confirm: confirm
      ? proxy(async (paths: string[], action: Parameters<typeof confirm>[1], request: Parameters<typeof confirm>[2]) =>
          Boolean(await confirm(paths, action, request)),
        )
      : undefined,
  };
}

/**
 * Start a worker that hosts a workspace and connect to it. A worker that fails to load rejects
 * with a message saying so: comlink alone would wait forever for an answer that never comes.
 */
export async function connectWorkspace(options: ConnectOptions): Promise<RemoteWorkspace> {
  const given = options.worker;
  const worker =
    given instanceof Worker
      ? given
      : typeof given === 'string' || given instanceof URL
        ? new Worker(given, { type: 'module' })
        : given
          ? (given as Worker)
          : new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  let failure: Error | null = null;
  let fail!: (error: Error) => void;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  failed.catch(() => {});
  const onError = (event: Event) => {
    // Handled here: the page's own error reporting should not see it a second time.
    event.preventDefault();
    const detail = (event as ErrorEvent).message;
    failure = new Error(
      `the Sandpit worker failed${detail ? `: ${detail}` : ' to load (check the worker URL and the console)'}`,
    );
    fail(failure);
    worker.terminate();
  };
  worker.addEventListener('error', onError);
  worker.addEventListener('messageerror', onError);
  const remote: Remote<WorkerApi> = wrap<WorkerApi>(worker);
  const guarded = async <T>(work: () => Promise<T>): Promise<T> => {
    if (failure) throw failure;
    return Promise.race([work(), failed]);
  };

  const name = options.name ?? 'default';
  const opening = guarded(() => {
    const { wire, confirm } = wireTools(options);
    return remote.open(
      {
        backend: options.backend,
        name,
        ...wire,
        ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }),
        ...(options.npmRegistry === undefined ? {} : { npmRegistry: options.npmRegistry }),
      },
      confirm,
    );
  }).catch((error: unknown) => {
    worker.terminate();
    throw error instanceof Error ? error : new Error(String(error));
  });

  // Sent with the open, not a round trip each after it: neither needs the workspace, and the
  // worker takes messages in the order they were sent, so both are in place before any later call.
  const listeners = new Set<(event: ChangeNotice) => void>();
  const taskListeners = new Set<(event: TaskNoteEvent) => void>();
  const subscribed = Promise.all([
    guarded(() =>
      remote.subscribe(
        proxy((event: ChangeNotice) => {
          for (const listener of listeners) listener(event);
        }),
      ),
    ),
    guarded(() =>
      remote.subscribeTasks(
        proxy((event: TaskNoteEvent) => {
          for (const listener of taskListeners) listener(event);
        }),
      ),
    ),
  ]);
  // a failed open is what the caller hears; the worker is ended then, and these never answer
  subscribed.catch(() => {});
  const info = await opening;
  await subscribed;

  let closed: Promise<void> | null = null;
  const gitCall = (
    verb: GitVerb,
    opts: (CloneOptions | PushOptions) & { auth?: GitAuth; onProgress?: CloneOptions['onProgress'] },
  ) => {
    const { auth, onProgress, ...plain } = opts ?? {};
    const authProxy = typeof auth === 'function' ? proxy(async (url: string) => auth(url)) : undefined;
    return guarded(
      () =>
        remote.git(
          verb,
          { ...plain, ...(auth && typeof auth === 'object' ? { auth } : {}) },
          onProgress
            ? proxy((event: Parameters<NonNullable<CloneOptions['onProgress']>>[0]) => {
                void onProgress(event);
              })
            : undefined,
          authProxy,
        ) as Promise<Envelope>,
    );
  };
  return {
    backend: info.backend,
    name: info.name,
    locked: info.locked,
    call: ((tool: string, args?: unknown, callOptions?: WireCallOptions & { onProgress?: CallProgress }) => {
      const report = callOptions?.onProgress;
      return guarded(
        () =>
          remote.call(
            tool,
            args,
            plainCallOptions(callOptions),
            report
              ? proxy((done: number, total?: number, message?: string) => report(done, total, message))
              : undefined,
          ) as Promise<Envelope>,
      );
    }) as Workspace['call'],
    review: remoteReview(remote, guarded),
    blame: (path) => guarded(() => remote.blame(path) as Promise<Envelope<BlameResult>>),
    forks: {
      create: (name) => guarded(() => remote.forkCreate(name) as ReturnType<WireForks['forkCreate']>),
      list: () => guarded(() => remote.forkList() as ReturnType<WireForks['forkList']>),
      use: (name) => guarded(() => remote.forkUse(name) as ReturnType<WireForks['forkUse']>),
      diff: (name) => guarded(() => remote.forkDiff(name) as ReturnType<WireForks['forkDiff']>),
      merge: (name, dryRun) => guarded(() => remote.forkMerge(name, dryRun) as ReturnType<WireForks['forkMerge']>),
      drop: (name) => guarded(() => remote.forkDrop(name) as ReturnType<WireForks['forkDrop']>),
      call: (name, tool, args, options) =>
        guarded(() => remote.forkCall(name, tool, args, plainCallOptions(options)) as Promise<Envelope>),
    },
    listTools: () => guarded(() => remote.listTools()),
    changes: () => guarded(() => remote.changes()),
    change: (id) => guarded(() => remote.change(id)),
    importFiles: (files, onProgress) =>
      guarded(
        () =>
          remote.importFiles(
            files.map((f) => ({ path: f.path, bytes: f.bytes })),
            onProgress ? proxy((done: number, total: number) => onProgress(done, total)) : undefined,
          ) as ReturnType<Workspace['importFiles']>,
      ),
    exportFiles: () => guarded(() => remote.exportFiles()),
    retool: (next) =>
      guarded(() => {
        const { wire, confirm } = wireTools(next);
        return remote.retool(wire, confirm);
      }),
    git: {
      clone: (opts) => gitCall('clone', opts) as never,
      push: (opts = {}) => gitCall('push', opts) as never,
      pull: (opts = {}) => gitCall('pull', opts) as never,
      probe: (opts) => gitCall('probe', opts) as never,
      setAuthor: (opts) => gitCall('setAuthor', opts as never) as never,
    },
    previewEntry: (path) => guarded(() => remote.previewEntry(path) as Promise<PreviewEntry>),
    previewAnswer: (request, port) =>
      guarded(() => remote.previewAnswer(request, transfer(port, [port])) as Promise<string[]>),
    previewConnect: (port, context, onProblems) =>
      guarded(() =>
        remote.previewConnect(
          transfer(port, [port as unknown as Transferable]),
          { root: context.root, prefix: context.prefix, playgroundOrigin: context.playgroundOrigin },
          proxy((problems: string[]) => onProblems(problems)),
        ),
      ),
    previewWarm: () => guarded(() => remote.previewWarm()),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onTask(listener) {
      taskListeners.add(listener);
      return () => taskListeners.delete(listener);
    },
    close() {
      closed ??= guarded(() => remote.close())
        .catch(() => {})
        .finally(() => {
          failure ??= new Error('this Sandpit workspace was closed; connect again to use it');
          // A call still on its way gets no answer from a worker that is gone: end it with this,
          // as a call made from now on is.
          fail(failure);
          listeners.clear();
          taskListeners.clear();
          remote[releaseProxy]();
          worker.terminate();
        });
      return closed;
    },
  };
}
