import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { ToolError } from '../../contract/index.js';
import { nodeBuiltin } from '../../fs/node-builtin.js';
import { CappedOutput, DEFAULT_OUTPUT_CAP } from './output-cap.js';

// child_process loads with the first command, not with this module: an MCP server's first answers
// (and every server that runs no command) go without it.
const childProcess = () => nodeBuiltin<typeof import('node:child_process')>('node:child_process');

/** A program to start; `env` is the complete environment (see programEnv). */
export interface SpawnRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number | null;
  /** written to stdin, which is then closed; without it stdin is empty */
  stdin?: string;
  /** bytes kept of each stream (head and tail) */
  maxOutputBytes?: number;
  /** the program's name as the model should see it (argv[0] may be a host path) */
  displayName?: string;
  /** everything the program starts dies with it (a PID namespace): ending its group is enough */
  contained?: boolean;
  /** written to descriptor 3, which is then closed (bubblewrap reads its arguments there) */
  fd3?: string;
  /** run once the program has ended (or failed to start), before its outcome is known; returns a note for the model */
  finish?: () => Promise<string | undefined>;
}

/** How a process ended. */
export interface ProcessOutcome {
  exit_code: number;
  /** the signal that ended it, when one did */
  signal: string | null;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  /** ended by kill() */
  killed: boolean;
  truncated: boolean;
  duration_ms: number;
  /** what the model should know beyond the output (what the sandbox undid after the program) */
  note?: string;
}

export type OutputListener = (stream: 'stdout' | 'stderr', chunk: Buffer) => void;

// After the program exits, how long its pipes may stay open (held by something that left its group).
const PIPE_GRACE_MS = 500;

// Programs run in their own process groups, so neither a host that exits without closing its
// workspaces nor a Ctrl-C (which reaches only the host's group) would end them; these hooks do.
const live = new Set<RunningProcess>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let hooksInstalled = false;

function killAll(): void {
  for (const p of live) p.kill();
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // Alone, keep the signal's usual meaning (end the host); beside the host's own handlers, leave it to them.
  if (process.listenerCount(signal) === 1) {
    for (const s of SIGNALS) process.removeListener(s, onSignal);
    process.kill(process.pid, signal);
  }
}

function track(running: RunningProcess): void {
  live.add(running);
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.once('exit', killAll);
  if (process.platform !== 'win32') for (const s of SIGNALS) process.on(s, onSignal);
}

/** A started program. Killing it ends its whole process group, children included. */
export class RunningProcess {
  readonly done: Promise<ProcessOutcome>;
  private readonly listeners = new Set<OutputListener>();
  private timedOut = false;
  private killed = false;
  private exited = false;

  private readonly contained: boolean;

  constructor(
    private readonly child: ChildProcess,
    request: SpawnRequest,
    private readonly started: number,
  ) {
    this.contained = request.contained === true;
    const stdout = new CappedOutput(request.maxOutputBytes ?? DEFAULT_OUTPUT_CAP);
    const stderr = new CappedOutput(request.maxOutputBytes ?? DEFAULT_OUTPUT_CAP);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout.push(chunk);
      this.emit('stdout', chunk);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr.push(chunk);
      this.emit('stderr', chunk);
    });
    const timer =
      request.timeoutMs === null
        ? null
        : setTimeout(() => {
            this.timedOut = true;
            this.killGroup();
          }, request.timeoutMs);
    this.done = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exited = true;
        live.delete(this);
        if (timer) clearTimeout(timer);
        // Nothing a foreground program left running in its group outlives it.
        this.killGroup();
        const finish = async () => {
          const note = await request.finish?.().catch(() => undefined);
          const out = stdout.read();
          const err = stderr.read();
          resolve({
            ...(note ? { note } : {}),
            exit_code: this.timedOut || this.killed ? -1 : (code ?? -1),
            signal: signal ?? null,
            stdout: out.text,
            stderr: err.text,
            timed_out: this.timedOut,
            killed: this.killed,
            truncated: out.truncated || err.truncated,
            duration_ms: Math.round(performance.now() - this.started),
          });
        };
        const grace = setTimeout(() => {
          child.stdout!.destroy();
          child.stderr!.destroy();
          void finish();
        }, PIPE_GRACE_MS);
        let open = 2;
        const closed = () => {
          if (--open === 0) {
            clearTimeout(grace);
            void finish();
          }
        };
        if (child.stdout!.readableEnded || child.stdout!.destroyed) closed();
        else child.stdout!.once('close', closed);
        if (child.stderr!.readableEnded || child.stderr!.destroyed) closed();
        else child.stderr!.once('close', closed);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return !this.exited;
  }

  /** Listen to output as it arrives (background tasks read it incrementally). */
  onOutput(listener: OutputListener): void {
    this.listeners.add(listener);
  }

  /** End the program and everything it started; its outcome says killed. */
  kill(): void {
    if (this.exited) return;
    this.killed = true;
    this.killGroup();
  }

  private emit(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    for (const listener of this.listeners) listener(stream, chunk);
  }

  private killGroup(): void {
    // A `setsid` child leaves the group; found through its parent while that still runs.
    const strays = this.contained || this.exited || process.platform !== 'linux' ? [] : descendantsOf(this.child.pid!);
    try {
      if (process.platform === 'win32') this.child.kill('SIGKILL');
      else process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // The group is already gone.
    }
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // It ended meanwhile.
      }
    }
  }
}

/**
 * Every living descendant of `root`, read from /proc (no cgroup needed). One that has already
 * been orphaned (its parent ended) is no longer anyone's descendant: only a PID namespace catches it.
 */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after the command name, which may itself hold spaces and parentheses.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/**
 * Start a program with no shell, in its own process group. Resolves once it is running; a
 * program that cannot start is a ToolError (NOT_FOUND, PERMISSION_DENIED) naming it as given.
 */
export function startProcess(request: SpawnRequest): Promise<RunningProcess> {
  const name = request.displayName ?? request.argv[0]!;
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let child: ChildProcess;
    try {
      child = childProcess().spawn(request.argv[0]!, request.argv.slice(1), {
        cwd: request.cwd,
        env: request.env,
        stdio: [
          request.stdin === undefined ? 'ignore' : 'pipe',
          'pipe',
          'pipe',
          ...(request.fd3 === undefined ? [] : ['pipe' as const]),
        ],
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
    } catch (error) {
      void request.finish?.().catch(() => {});
      reject(startError(error, name));
      return;
    }
    child.once('error', (error) => {
      void request.finish?.().catch(() => {});
      reject(startError(error, name));
    });
    if (request.fd3 !== undefined) {
      const pipe = child.stdio[3] as NodeJS.WritableStream;
      pipe.on('error', () => {});
      pipe.end(request.fd3);
    }
    child.once('spawn', () => {
      if (request.stdin !== undefined) {
        // A program that never reads its stdin must not make the write fail the call.
        child.stdin!.on('error', () => {});
        child.stdin!.end(request.stdin);
      }
      const running = new RunningProcess(child, request, started);
      track(running);
      resolve(running);
    });
  });
}

/** The ToolError for a program that could not start (NOT_FOUND, PERMISSION_DENIED, IO_ERROR), naming it as the model gave it. */
export function startError(error: unknown, name: string): ToolError {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') {
    return new ToolError('NOT_FOUND', `no program named '${name}' was found`, {
      hint: "Check the spelling, or give its path relative to the workspace (./scripts/x.sh). Shell built-ins need ['sh', '-c', '...'].",
    });
  }
  if (code === 'EACCES' || code === 'EPERM') {
    return new ToolError('PERMISSION_DENIED', `'${name}' cannot be run (permission denied)`, {
      hint: 'It may not be executable; run it through its interpreter.',
    });
  }
  return new ToolError('IO_ERROR', `'${name}' could not be started (${code ?? 'unknown error'})`);
}
