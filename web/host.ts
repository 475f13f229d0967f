import { createWorkspace } from '../src/create-workspace.js';
import { createPageRunner } from './page-runner.js';
import type { Envelope, Workspace } from '../src/workspace-core.js';
import type { ApprovalRequest, ConfirmAction } from '../src/workspace/policy.js';
import { canonicalTools } from '../src/toolsets/canonical.js';
import { toToolError } from '../src/fs/tool-error.js';
import { BACKEND_KINDS, backendOf, type OpenedBackend } from '../src/fs/backends.js';
import type { GitCredentials, GitProgress } from '../src/git/index.js';
import type { ToolDefinition } from '../src/tools/schema/define.js';
import type {
  CallProgress,
  ChangeNotice,
  GitVerb,
  OpenInfo,
  TaskNoteEvent,
  WireCallOptions,
  WireGitOptions,
  WireOpenOptions,
  WireForks,
  WorkerApi,
} from './protocol.js';
import { tryLock, type HeldLock } from './tab-lock.js';
import { hostReview } from './host-review.js';
import { hostPreview } from './host-preview.js';
import { yieldingFs } from './yielding-fs.js';
import { givenWayTo, warmInTurns } from './warm-up.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TOOLSETS = ['canonical', 'cowork'];

/**
 * The tools a workspace opened with `toolset` answers, and the names `listTools` offers. A
 * surface's tools win over canonical ones of the same name; the other canonical tools stay
 * callable because the page itself (tree, editor, review) speaks canonical.
 */
async function toolsFor(opts: WireOpenOptions): Promise<{ tools: ToolDefinition[]; offered: Set<string> | null }> {
  if (opts.toolset !== 'cowork') return { tools: canonicalTools, offered: null };
  // cowork loads only when a page asks for it, not with every worker
  const { coworkTools } = await import('../src/toolsets/cowork.js');
  const surface = coworkTools(opts.artifactDir === undefined ? {} : { artifactDir: opts.artifactDir });
  const offered = new Set(surface.map((t) => t.name));
  return { tools: [...surface, ...canonicalTools.filter((t) => !offered.has(t.name))], offered };
}

/**
 * A progress callback from the page, called without waiting, and a way to wait for the calls
 * made so far. Progress travels on its own message channel, so without that wait its last events
 * could reach the page after the envelope, and a UI that clears its progress line on the envelope
 * would see it written again. Comlink answers calls on one channel in order: the last answer
 * means every earlier event has been handled.
 */
function orderedProgress<A extends unknown[]>(report: ((...args: A) => unknown) | undefined) {
  let last: Promise<unknown> = Promise.resolve();
  return {
    report:
      report &&
      ((...args: A) => {
        last = Promise.resolve(report(...args)).catch(() => {});
      }),
    delivered: () => last,
  };
}

const ownBytes = (bytes: Uint8Array): Uint8Array =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);

const envelope = (tool: string, code: 'IO_ERROR' | 'INVALID_ARGUMENTS', message: string, hint?: string): Envelope => ({
  ok: false,
  tool,
  error: { code, message, ...(hint ? { hint } : {}) },
});

/**
 * The workspace a worker hosts. A persistent workspace (OPFS, IndexedDB) is opened only while this
 * worker holds its Web Lock, so two tabs never write one store at once: the second tab's calls
 * fail with IO_ERROR until the first tab closes it, then the second tab opens it afresh (and sees
 * the first tab's files, because nothing was read before the lock was taken).
 */
export function createHost(): WorkerApi {
  // A worker may be started ahead of need (the playground keeps a spare one) and asked to open later, offline.
  void warmUp();
  let options: WireOpenOptions | null = null;
  let confirm: ((paths: string[], action: ConfirmAction, request: ApprovalRequest) => Promise<boolean>) | undefined;
  let lock: HeldLock | null = null;
  let backend: OpenedBackend | null = null;
  let ws: Workspace | null = null;
  let surface: Awaited<ReturnType<typeof toolsFor>> = { tools: canonicalTools, offered: null };
  const listeners = new Set<(event: ChangeNotice) => void>();
  const emit = (event: ChangeNotice) => {
    for (const listener of listeners) Promise.resolve(listener(event)).catch(() => listeners.delete(listener));
  };
  /** the fork the page works on, or null for the workspace itself */
  let view: { name: string; ws: Workspace } | null = null;
  /** the workspace the page's calls, review and preview answer from: the viewed fork, else the workspace */
  const target = async (): Promise<Workspace | null> => {
    const parent = await ready();
    return parent && view ? view.ws : parent;
  };
  // loaded on the first fork verb, so a worker that never forks does not carry it
  let forks: Promise<WireForks> | null = null;
  const forkVerbs = () =>
    (forks ??= import('./host-forks.js').then((m) =>
      m.hostForks(
        ready,
        (tool) => locked(tool) as Envelope<never>,
        emit,
        (next) => (view = next),
        () => view?.name ?? null,
      ),
    ));
  const taskListeners = new Set<(event: TaskNoteEvent) => void>();
  const preview = hostPreview(target);

  /** The answer while another tab holds this workspace. */
  const locked = (tool: string) =>
    envelope(
      tool,
      'IO_ERROR',
      `the workspace '${options!.name}' is open in another tab or window, and only one may change it at a time`,
      'Close the workspace in the other tab (or use another name), then retry.',
    ) as Extract<Envelope, { ok: false }>;

  // One opening for every call that waits on it: more found the lock held by their own worker, or made two workspaces.
  let opening: Promise<Workspace | null> | null = null;
  const ready = (): Promise<Workspace | null> =>
    ws ? Promise.resolve(ws) : (opening ??= openNow().finally(() => (opening = null)));

  async function openNow(): Promise<Workspace | null> {
    if (!options) throw new Error('open() was not called');
    // fetched beside the backend's code, not after it
    const tasksCode = surface.offered ? null : import('./host-tasks.js');
    tasksCode?.catch(() => {});
    const descriptor = backendOf(options.backend)!;
    // A retool closes the workspace but keeps the storage (and its lock): open over the same one.
    if (descriptor.persistent && !lock) {
      lock = await tryLock(`sandpit:${options.backend}:${options.name}`);
      if (!lock) return null;
    }
    backend ??= await descriptor.create(options.name);
    const fs = yieldingFs(backend.fs, preview.previewing);
    const { confirm: asks, ...policy } = options.policy ?? {};
    // Background commands are tasks of this workspace; the task tools go with canonical's run_command.
    const background = !tasksCode
      ? null
      : (await tasksCode).hostTasks((event) => {
          for (const listener of taskListeners)
            Promise.resolve(listener(event)).catch(() => taskListeners.delete(listener));
        });
    ws = createWorkspace({
      fs,
      root: '/',
      tools: background ? [...surface.tools, ...background.tools] : surface.tools,
      // run_command runs in Sandpit's own shell (loaded on the first command); `node` in a throwaway worker.
      processRunner: createPageRunner(fs, '/', {
        ...(background ? { tasks: background.tasks } : {}),
        ...(options.npmRegistry ? { packages: { registry: options.npmRegistry } } : {}),
      }),
      policy: { ...policy, ...(asks && confirm ? { confirm } : {}) },
      ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }),
    });
    if (background) ws.onClose(() => background.tasks.closeAll());
    const opened = ws;
    ws.changes.onChange((event) => {
      if (view === null) preview.changed(opened, event.files);
      emit({ change_id: event.change_id, tool: event.tool, paths: [...event.paths] });
    });
    return ws;
  }

  // the warm-up starts no import while a verb runs: a connect and its first calls go first
  return givenWayTo<WorkerApi>({
    async open(opts, confirmProxy): Promise<OpenInfo> {
      if (options) throw new Error('this worker already hosts a workspace');
      const descriptor = backendOf(opts?.backend);
      if (!descriptor)
        throw new Error(`unknown backend '${String(opts?.backend).slice(0, 40)}': use ${BACKEND_KINDS.join(', ')}`);
      if (!descriptor.isAvailable())
        throw new Error(`the ${descriptor.label} backend is not available in this browser`);
      if (typeof opts.name !== 'string' || !NAME.test(opts.name))
        throw new Error('name must be 1-64 letters, digits, dots, dashes or underscores');
      if (opts.toolset !== undefined && !TOOLSETS.includes(opts.toolset))
        throw new Error(`unknown toolset '${String(opts.toolset).slice(0, 40)}': use ${TOOLSETS.join(' or ')}`);
      if (opts.artifactDir !== undefined && typeof opts.artifactDir !== 'string')
        throw new Error('artifactDir must be a folder path relative to the workspace root');
      if (opts.npmRegistry !== undefined && !/^https?:\/\//.test(String(opts.npmRegistry)))
        throw new Error('npmRegistry must be an http(s) URL');
      options = structuredClone(opts);
      confirm = confirmProxy;
      surface = await toolsFor(options);
      const opened = await ready();
      return { backend: opts.backend, name: opts.name, locked: opened === null };
    },
    async retool(opts, confirmProxy): Promise<void> {
      if (!options) throw new Error('open() was not called');
      if (opts.toolset !== undefined && !TOOLSETS.includes(opts.toolset))
        throw new Error(`unknown toolset '${String(opts.toolset).slice(0, 40)}': use ${TOOLSETS.join(' or ')}`);
      if (opts.artifactDir !== undefined && typeof opts.artifactDir !== 'string')
        throw new Error('artifactDir must be a folder path relative to the workspace root');
      const next: WireOpenOptions = { backend: options.backend, name: options.name, ...structuredClone(opts) };
      if (options.snapshots !== undefined) next.snapshots = options.snapshots;
      if (options.npmRegistry !== undefined) next.npmRegistry = options.npmRegistry;
      const tools = await toolsFor(next);
      // Its close waits for the last snapshot and ends its background tasks; the storage stays open.
      await ws?.close();
      ws = null;
      view = null;
      forks = null;
      options = next;
      confirm = confirmProxy;
      surface = tools;
      await ready();
    },
    // One untyped body answers every tool; the typed signature is the Workspace's own.
    ...hostReview(target, (tool) => locked(tool) as Envelope<never>),
    forkCreate: async (name) => (await forkVerbs()).forkCreate(name),
    forkList: async () => (await forkVerbs()).forkList(),
    forkUse: async (name) => (await forkVerbs()).forkUse(name),
    forkDiff: async (name) => (await forkVerbs()).forkDiff(name),
    forkMerge: async (name, dryRun) => (await forkVerbs()).forkMerge(name, dryRun),
    forkDrop: async (name) => (await forkVerbs()).forkDrop(name),
    forkCall: async (name, tool, args, callOptions) => {
      const result = await (await forkVerbs()).forkCall(name, tool, args, callOptions);
      await backend?.flush?.().catch(() => {});
      return result;
    },
    call: (async (
      tool: string,
      args?: unknown,
      callOptions?: WireCallOptions,
      onProgress?: CallProgress,
    ): Promise<Envelope> => {
      const name = typeof tool === 'string' ? tool : String(tool);
      try {
        const current = await target();
        if (!current) return locked(name);
        const who = callOptions && typeof callOptions === 'object' ? callOptions : {};
        const progress = orderedProgress(typeof onProgress === 'function' ? onProgress : undefined);
        const result = await current.call(name, args, {
          ...(typeof who.actor === 'string' ? { actor: who.actor } : {}),
          ...(typeof who.call_id === 'string' ? { call_id: who.call_id } : {}),
          ...(progress.report ? { onProgress: progress.report } : {}),
        });
        await backend?.flush?.();
        await progress.delivered();
        return result;
      } catch (error) {
        // The call itself never throws; this is opening the backend or saving its tree afterwards.
        const body = toToolError(error).toJSON();
        return { ok: false, tool: name, error: { ...body, message: `the browser storage failed: ${body.message}` } };
      }
    }) as WorkerApi['call'],
    async listTools() {
      const all =
        (view?.ws ?? ws)?.listTools() ??
        canonicalTools.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema }));
      const { offered } = surface;
      return offered ? all.filter((t) => offered.has(t.name)) : all;
    },
    async changes() {
      const current = view?.ws ?? ws;
      return current ? current.changes.list() : [];
    },
    async change(id) {
      return (view?.ws ?? ws)?.changes.get(id) ?? null;
    },
    async subscribe(listener) {
      listeners.add(listener);
    },
    async subscribeTasks(listener) {
      taskListeners.add(listener);
    },
    async importFiles(files, onProgress) {
      const current = await target();
      if (!current) return locked('import_files') as Envelope<never>;
      if (!Array.isArray(files))
        return envelope(
          'import_files',
          'INVALID_ARGUMENTS',
          'importFiles takes an array of { path, bytes }',
        ) as Envelope<never>;
      if (!files.every((f) => typeof f?.path === 'string' && f.bytes instanceof Uint8Array)) {
        return envelope(
          'import_files',
          'INVALID_ARGUMENTS',
          'every imported file needs a path and its bytes as a Uint8Array',
        ) as Envelope<never>;
      }
      const progress = orderedProgress(onProgress);
      const result = await current.importFiles(
        files.map((f) => ({ path: f.path, bytes: f.bytes })),
        progress.report ? { onProgress: progress.report } : {},
      );
      await backend?.flush?.();
      await progress.delivered();
      return result;
    },
    async exportFiles() {
      const current = await target();
      if (!current) throw new Error(locked('export').error.message);
      const { files, skipped } = await current.exportFiles();
      // A view into a larger buffer (a pooled Buffer) would clone the whole buffer: send its own bytes.
      return { files: files.map((f) => ({ path: f.path, bytes: ownBytes(f.bytes) })), skipped };
    },
    git: (async (
      verb: GitVerb,
      opts: WireGitOptions,
      onProgress?: (event: GitProgress) => void,
      auth?: (url: string) => Promise<GitCredentials | undefined>,
    ): Promise<Envelope> => {
      const tool = `git_${String(verb)}`;
      const current = await ready();
      if (!current) return locked(tool);
      if (!['clone', 'push', 'pull', 'probe', 'setAuthor'].includes(verb))
        return envelope(
          tool,
          'INVALID_ARGUMENTS',
          `unknown git verb '${String(verb).slice(0, 40)}': use clone, push, pull, probe or setAuthor`,
        );
      const progress = orderedProgress(onProgress);
      const full = { ...opts, ...(progress.report ? { onProgress: progress.report } : {}), ...(auth ? { auth } : {}) };
      const result = await (current.git[verb] as (o: typeof full) => Promise<Envelope>)(full);
      await backend?.flush?.();
      await progress.delivered();
      return result;
    }) as WorkerApi['git'],
    ...preview.verbs,
    async close() {
      listeners.clear();
      taskListeners.clear();
      try {
        view = null;
        forks = null;
        await ws?.close();
        await backend?.flush?.();
      } finally {
        await backend?.close?.().catch(() => {});
        ws = null;
        backend = null;
        lock?.release();
        lock = null;
      }
    },
  });
}

/**
 * From the worker's start, fetch in the background the code that loads on first use (the
 * backends, the shell, the patch engine, RE2, ...): the worker's first load stays small, and a
 * page that then goes offline still has all of it, as it had when the worker was one file. It
 * gives way to the page's calls (see warm-up.ts): a spare worker warms at once, a connected one
 * between its calls. Resolves once all of it is here (true) or some of it could not be fetched (false).
 */
let warming: Promise<boolean> | null = null;
export function warmUp(): Promise<boolean> {
  const later = [
    () => import('../src/fs/memory.js'),
    () => import('../src/fs/indexeddb.js'),
    () => import('../src/fs/opfs.js'),
    () => import('../src/shell/run.js'),
    () => import('./node-host.js'),
    () => import('../src/patch/apply.js'),
    () => import('../src/search/regex.js').then((m) => m.compileRegex('a', true)),
    () => import('../src/tools/schema/strict-schema.js'),
    () => import('../src/tools/import-files.js'),
    () => import('./preview/read-file.js'),
    () => import('./preview/answer.js'),
    () => import('../src/snapshots/diff.js'),
    () => import('../src/toolsets/cowork.js'),
    () => import('./host-tasks.js'),
    () => import('../src/snapshots/pack.js'),
    () => import('../src/search/glob.js').then((m) => m.compileGlob('*')),
    () => import('../src/workspace-review.js'),
    () => import('../src/workspace/blame/tracker.js'),
    () => import('../src/tools/review/blame-file.js'),
    () => import('./host-forks.js'),
    () => import('../src/workspace-forks.js'),
  ];
  warming ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => warmInTurns(later));
  return warming;
}
