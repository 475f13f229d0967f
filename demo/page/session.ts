import { connectWorkspace, whenWarm, type RemoteWorkspace, type WarmState } from '../../web/client.js';
import type { BackendKind, ChangeNotice, TaskNoteEvent } from '../../web/protocol.js';
import { WORKSPACE_BACKENDS } from '../../src/fs/backends.js';
import { whenIdle } from './idle.js';
import type { ApprovalRequest, Envelope } from '../../src/index.js';

const STORE_KEY = 'sandpit.demo.workspace';

/**
 * The tools the console and the agent get: canonical (deletes proceed, Review can undo them),
 * canonical with every delete asked, or cowork, which asks before deletes and before changes
 * outside its artifact folder.
 */
export type ToolChoice = 'canonical' | 'canonical-ask' | 'cowork';
export const TOOL_CHOICES: ReadonlyArray<{ value: ToolChoice; label: string }> = [
  { value: 'canonical', label: 'canonical' },
  { value: 'canonical-ask', label: 'canonical, ask deletes' },
  { value: 'cowork', label: 'cowork, asks outside out/' },
];
/** cowork's artifact folder in the playground: new files and edits in it need no approval */
export const ARTIFACT_DIR = 'out';

export interface WorkspaceChoice {
  backend: BackendKind;
  name: string;
  /** the tool surface (default canonical) */
  tools?: ToolChoice;
}

/** The page's answer to a confirmation: a person says yes or no. */
export type AskPerson = (request: ApprovalRequest) => Promise<boolean>;

/** The backends the page offers: those this browser has, from the one list of descriptors. */
export const BACKENDS: ReadonlyArray<{ kind: BackendKind; label: string; note: string }> = WORKSPACE_BACKENDS.filter(
  (b) => b.isAvailable(),
);

/** The backend and name picked last time, so a reload comes back to the same workspace. */
export function rememberedChoice(): WorkspaceChoice {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as Partial<WorkspaceChoice> | null;
    if (saved && BACKENDS.some((b) => b.kind === saved.backend) && typeof saved.name === 'string' && saved.name) {
      const tools = TOOL_CHOICES.find((t) => t.value === saved.tools)?.value ?? 'canonical';
      return { backend: saved.backend!, name: saved.name, tools };
    }
  } catch {
    // A corrupt entry is no reason to fail the page; fall back to the default.
  }
  return { backend: DEFAULT_BACKEND, name: 'playground', tools: 'canonical' };
}

/** Storage that outlives a reload where the browser has it (OPFS, else IndexedDB); Memory only when picked. */
const DEFAULT_BACKEND: BackendKind =
  (['opfs', 'indexeddb'] as const).find((kind) => BACKENDS.some((b) => b.kind === kind)) ?? 'memory';

export function rememberChoice(choice: WorkspaceChoice): void {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(choice));
  } catch {
    // Storage may be off (private mode); the choice then lasts only for this page.
  }
}

type Listener = (event: ChangeNotice) => void;

/** The Sandpit worker, bundled with the page (Vite follows this `new URL` into the build). */
const startWorker = () => new Worker(new URL('../../web/worker.js', import.meta.url), { type: 'module' });

/**
 * The page's one connection. Panels subscribe once; a backend switch swaps the workspace under
 * them and tells them through `onSwitch`, so nobody holds a closed workspace.
 */
export class Session {
  private ws: RemoteWorkspace | null = null;
  private readonly changeListeners = new Set<Listener>();
  private readonly taskListeners = new Set<(event: TaskNoteEvent) => void>();
  private readonly switchListeners = new Set<() => void>();
  private readonly settledListeners = new Set<(envelope: Envelope) => void>();
  private unsubscribe: (() => void) | null = null;
  private spare: Worker | null = null;
  private spareState: WarmState | 'starting' = 'starting';
  /** How the spare's start went, while it is starting; the worker in use once it was taken. */
  private spareWarm: Promise<WarmState> | null = null;
  /** Calls off a spare that waits to start (see scheduleSpare). */
  private cancelSpare: (() => void) | null = null;
  private readonly warmListeners = new Set<(ready: boolean) => void>();
  choice: WorkspaceChoice = rememberedChoice();
  /** confirmations a person already gave in the page (the tree's own question), by tool and paths */
  private readonly granted = new Set<{ tool: string; paths: Set<string> }>();

  /** `ask` shows the approval dialog; it answers every confirmation the worker sends across. */
  constructor(private readonly ask: AskPerson) {}

  /** The workspace's approver: an answer the page already has, else the person. */
  private readonly approve = async (paths: string[], _action: unknown, request: ApprovalRequest): Promise<boolean> => {
    const plain = (p: string) => p.replace(/^\.\//, '');
    for (const grant of this.granted) {
      if (grant.tool === request.tool && paths.every((p) => grant.paths.has(plain(p)))) return true;
    }
    return this.ask(request);
  };

  private lockedNow = false;
  private readonly lockListeners = new Set<(locked: boolean) => void>();

  /** Whether another tab holds this workspace, as the latest call found it (it may let go later). */
  get locked(): boolean {
    return this.lockedNow;
  }

  onLockChange(listener: (locked: boolean) => void): void {
    this.lockListeners.add(listener);
  }

  private setLocked(locked: boolean): void {
    if (locked === this.lockedNow) return;
    this.lockedNow = locked;
    for (const listener of this.lockListeners) listener(locked);
  }

  /**
   * Whether a switch would work offline now: the spare worker has fetched all the code any
   * backend needs. False for a while after each switch and the first load: the next spare starts
   * only once the worker in use has fetched its own code and the page is idle (see scheduleSpare).
   */
  get offlineReady(): boolean {
    return this.spareState === 'warm';
  }

  onOfflineReady(listener: (ready: boolean) => void): void {
    this.warmListeners.add(listener);
  }

  /** Whether a workspace is open: false while one opens, and after a switch that failed twice over. */
  get isOpen(): boolean {
    return this.ws !== null;
  }

  private startSpare(): Worker {
    const worker = startWorker();
    this.setSpareState('starting');
    const warm = whenWarm(worker);
    this.spareWarm = warm;
    void warm.then((state) => {
      if (this.spare === worker) this.setSpareState(state);
    });
    return worker;
  }

  /**
   * Start the next spare once the worker just connected has fetched the code it loads on first use
   * (its warm-up gives way to the page's calls, so the first listing comes first) and the page is
   * idle: a spare started at once competed with the page's first load for the thread and the
   * connections, and fetched the same modules over again; started after, it finds every one in
   * the browser's cache. A switch before then takes a new worker, as after a spare that failed.
   */
  private scheduleSpare(connected: Promise<WarmState>): void {
    this.cancelSpare?.();
    let cancelIdle: (() => void) | null = null;
    let cancelled = false;
    this.cancelSpare = () => {
      cancelled = true;
      cancelIdle?.();
      this.setSpareHeld(false);
    };
    const startWhenFree = () => {
      cancelIdle = whenIdle(() => {
        if (cancelled) return;
        // A preview load in flight goes first (see spareWaitsFor): the spare's code loading
        // competed with its transpiles and its Service Worker for the cores.
        const busy = this.previewLoading();
        if (busy) {
          this.setSpareHeld(true);
          void busy.then(() => {
            if (!cancelled) startWhenFree();
          });
          return;
        }
        this.cancelSpare = null;
        this.setSpareHeld(false);
        this.spare = this.startSpare();
      });
    };
    void connected.then(() => !cancelled && startWhenFree());
  }

  /** The preview's load in flight, if any, and who hears when the next spare waits for one. */
  private previewLoading: () => Promise<void> | null = () => null;
  private setSpareHeld: (held: boolean) => void = () => {};

  /**
   * What the next spare waits for before it starts: `loading` gives the preview's load in flight
   * (settling when it loads, fails or times out: the preview bounds the wait), or null when none is.
   */
  spareWaitsFor(loading: () => Promise<void> | null): void {
    this.previewLoading = loading;
  }

  /** Told when the next spare starts waiting for a preview load, and when it stops. */
  onSpareHeld(listener: (held: boolean) => void): void {
    this.setSpareHeld = listener;
  }

  /**
   * The spare, unless it never loaded (offline when it started): that one would never answer. With
   * it, how its start goes, for scheduleSpare.
   */
  private takeSpare(): { worker: Worker; warm: Promise<WarmState> } {
    this.cancelSpare?.();
    this.cancelSpare = null;
    const spare = this.spare;
    const spareWarm = this.spareWarm;
    this.spare = null;
    this.spareWarm = null;
    const state = this.spareState;
    this.setSpareState('starting');
    if (spare && spareWarm && state !== 'failed') return { worker: spare, warm: spareWarm };
    spare?.terminate();
    const worker = startWorker();
    return { worker, warm: whenWarm(worker) };
  }

  private setSpareState(state: WarmState | 'starting'): void {
    const wasReady = this.offlineReady;
    this.spareState = state;
    if (this.offlineReady !== wasReady) for (const listener of this.warmListeners) listener(this.offlineReady);
  }

  get workspace(): RemoteWorkspace {
    if (!this.ws) throw new Error('no workspace is open yet');
    return this.ws;
  }

  async open(choice: WorkspaceChoice): Promise<void> {
    const previous = this.ws;
    const before = this.choice;
    this.ws = null;
    this.unsubscribe?.();
    await previous?.close();
    const { worker, warm } = this.takeSpare();
    try {
      this.ws = await connectWorkspace({
        backend: choice.backend,
        name: choice.name,
        worker,
        ...this.toolOptions(choice.tools ?? 'canonical'),
      });
    } catch (error) {
      // Never leave the page without a workspace: go back to the one that was open.
      this.spare = this.startSpare();
      if (previous) await this.open(before).catch(() => {});
      throw error;
    }
    this.choice = choice;
    this.viewingFork = null;
    rememberChoice(choice);
    // The next switch takes a worker that is already loaded, so switching works offline too.
    this.scheduleSpare(warm);
    this.setLocked(this.ws.locked);
    const offChanges = this.ws.onChange((event) => {
      // The panels show one workspace at a time: a fork's changes are not the workspace's, and back.
      if ((event.workspace ?? null) !== this.viewingFork) return;
      for (const listener of this.changeListeners) listener(event);
    });
    const offTasks = this.ws.onTask((event) => {
      for (const listener of this.taskListeners) listener(event);
    });
    this.unsubscribe = () => {
      offChanges();
      offTasks();
    };
    for (const listener of this.switchListeners) listener();
  }

  /** The toolset and policy a tool choice stands for. */
  private toolOptions(tools: ToolChoice) {
    // canonical without asking has no approver: its deletes proceed (Review undoes them), as the core's rule says
    const asks = tools !== 'canonical';
    return {
      toolset: tools === 'cowork' ? ('cowork' as const) : ('canonical' as const),
      ...(tools === 'cowork' ? { artifactDir: ARTIFACT_DIR } : {}),
      policy: asks ? { confirm: this.approve, alwaysConfirmDeletes: true } : {},
    };
  }

  /** Change the tools over the same storage: the files and the history stay, whatever the backend. */
  async retool(tools: ToolChoice): Promise<void> {
    await this.workspace.retool(this.toolOptions(tools));
    this.choice = { ...this.choice, tools };
    rememberChoice(this.choice);
  }

  /**
   * Run a tool. After a call that changed files has fully finished (its snapshot included),
   * `onSettled` listeners run. `approved` names paths the person already agreed to in the page
   * (the tree asks before a delete), so the workspace's confirmation does not ask them twice.
   */
  async call(
    tool: string,
    args: unknown = {},
    options: {
      approved?: string[];
      actor?: string;
      call_id?: string;
      onProgress?: (done: number, total?: number, message?: string) => void;
    } = {},
  ): Promise<Envelope> {
    let envelope: Envelope;
    const grant = options.approved ? { tool, paths: new Set(options.approved) } : null;
    if (grant) this.granted.add(grant);
    try {
      if (!this.ws) throw new Error('the workspace is still opening; try again in a moment');
      envelope = await this.ws.call(tool, args, {
        ...(options.actor !== undefined ? { actor: options.actor } : {}),
        ...(options.call_id !== undefined ? { call_id: options.call_id } : {}),
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
    } catch (error) {
      // Only a dead or closed worker rejects; the panels show it like any failed call.
      envelope = { ok: false, tool, error: { code: 'IO_ERROR', message: (error as Error).message } };
    } finally {
      if (grant) this.granted.delete(grant);
    }
    if (envelope.ok) this.setLocked(false);
    else if (envelope.error.code === 'IO_ERROR' && envelope.error.message.includes('another tab')) this.setLocked(true);
    if (envelope.ok && typeof (envelope.result as { change_id?: unknown })?.change_id === 'string') {
      for (const listener of this.settledListeners) listener(envelope);
    }
    return envelope;
  }

  /** Bring files in from their bytes as one change (and one snapshot); panels refresh as after a call. */
  async importFiles(
    files: Array<{ path: string; bytes: Uint8Array }>,
    onProgress?: (done: number, total: number) => void,
  ): Promise<Envelope> {
    let envelope: Envelope;
    try {
      envelope = await this.workspace.importFiles(files, onProgress);
    } catch (error) {
      envelope = { ok: false, tool: 'import_files', error: { code: 'IO_ERROR', message: (error as Error).message } };
    }
    if (envelope.ok && typeof (envelope.result as { change_id?: unknown }).change_id === 'string') {
      for (const listener of this.settledListeners) listener(envelope);
    }
    return envelope;
  }

  onSettled(listener: (envelope: Envelope) => void): void {
    this.settledListeners.add(listener);
  }

  /** A call whose failure is the caller's to show: returns the result or throws the envelope's error. */
  async must<T = Record<string, any>>(tool: string, args: unknown = {}): Promise<T> {
    const envelope = await this.call(tool, args);
    if (!envelope.ok) throw Object.assign(new Error(`${envelope.error.code}: ${envelope.error.message}`), { envelope });
    return envelope.result as T;
  }

  /** Hear every change; returns a way to stop. */
  onChange(listener: Listener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Hear every background task's notes and end (the Agent tab's inbox takes them); returns a way to stop. */
  onTask(listener: (event: TaskNoteEvent) => void): () => void {
    this.taskListeners.add(listener);
    return () => this.taskListeners.delete(listener);
  }

  onSwitch(listener: () => void): void {
    this.switchListeners.add(listener);
  }

  private viewingFork: string | null = null;
  private readonly viewListeners = new Set<() => void>();

  /** The fork the panels work on, or null for the workspace itself. */
  get viewing(): string | null {
    return this.viewingFork;
  }

  /** Work on a fork (or on the workspace itself with null): the panels then show and change that one. */
  async useFork(name: string | null): Promise<Envelope> {
    const envelope = await this.workspace.forks.use(name);
    if (envelope.ok) {
      this.viewingFork = envelope.result.viewing;
      for (const listener of this.viewListeners) listener();
    }
    return envelope;
  }

  /** Hear a change of the fork the panels work on. */
  onView(listener: () => void): void {
    this.viewListeners.add(listener);
  }
}
