import type { WorkspaceFs } from '../fs/types.js';
import { displayText } from './bytes.js';
import { applyBufferedChanges, type AppliedFile, type ApplySteps } from './apply.js';
import { commandTable } from './commands/index.js';
import { ExitSignal, TimeoutSignal, type CommandFn, type PackageSettings, type ShellState } from './context.js';
import { freshParts, Interpreter } from './interpreter.js';
import { ShellFs } from './overlay.js';
import { OutputCap } from './output-cap.js';

/** One command line for the shell. */
export interface ShellRequest {
  fs: WorkspaceFs;
  /** the backend folder that is the workspace root */
  root: string;
  /** the whole line, as bash would read it */
  command: string;
  /** the working folder, root-relative ('' or '.' is the root) */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number | null;
  /** bytes kept of each of stdout and stderr (head and tail) */
  maxOutputBytes?: number;
  /** extra commands a host adds (`node` in a browser worker) */
  extraCommands?: Record<string, CommandFn>;
  /** the workspace's write path, which the command's buffered writes go through */
  apply: ApplySteps;
  /** aborting it kills the command line at its next step (a background task's kill) */
  signal?: AbortSignal;
  /** the shell's `npm` settings (registry, tarball cache) */
  packages?: PackageSettings;
  /** told of a long command's progress (packages resolved and fetched) */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /** told of output as it is written (a background task's task_output reads it), before the cap */
  onOutput?: (stream: 'stdout' | 'stderr', text: string) => void;
  /** device files by absolute path, such as a task's notify file: what is redirected there goes to the writer */
  devices?: ReadonlyMap<string, (text: string) => void>;
  /** a session the line runs in: it starts from the state the last line left there, and leaves its own */
  session?: ShellSession;
}

/** A shell session's holder: the state a line leaves for the next (none before the first line or after a restart). */
export interface ShellSession {
  /** the folder, variables, arrays, functions and options the last line left: the shell's own, opaque to a host */
  state?: object;
}

/** What a session keeps of the shell's state between lines. */
type SessionState = Pick<
  ShellState,
  'cwd' | 'vars' | 'exported' | 'arrays' | 'assoc' | 'functions' | 'options' | 'oldCwd'
>;

export interface ShellResult {
  exit_code: number;
  /** ended by `signal` (exit_code -1) */
  killed: boolean;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  duration_ms: number;
  /** the files the command wrote, created or removed (already applied), with their text before and after */
  applied: AppliedFile[];
}

/** The environment every command line starts with; the call's `env` goes on top. */
const BASE_ENV = { HOME: '/', PATH: '/usr/bin:/bin', SHELL: '/bin/sh', USER: 'user', LANG: 'C.UTF-8' };

/**
 * Run a command line through the shell over the workspace. Reads see the workspace; writes are
 * kept in an overlay and applied when the line ends (also when it fails or times out part-way,
 * as a real shell would have made them), so they become one change and one snapshot.
 */
export async function runShell(request: ShellRequest): Promise<ShellResult> {
  const started = Date.now();
  const fs = new ShellFs(request.fs, request.root);
  const kept = request.session?.state as SessionState | undefined;
  const cwd = kept?.cwd ?? `/${request.cwd === '.' ? '' : request.cwd}`;
  const vars = new Map(Object.entries({ ...BASE_ENV, PWD: cwd, ...request.env }));
  const commands = commandTable(request.extraCommands);
  const shell = new Interpreter({
    fs,
    cwd,
    vars: kept ? new Map([...kept.vars, ...Object.entries(request.env)]) : vars,
    exported: kept ? new Set([...kept.exported, ...Object.keys(request.env)]) : new Set(vars.keys()),
    args: [],
    ...freshParts(),
    ...(kept ? { arrays: kept.arrays, assoc: kept.assoc, functions: kept.functions, options: kept.options } : {}),
    ...(kept?.oldCwd !== undefined ? { oldCwd: kept.oldCwd } : {}),
    status: 0,
    commands,
    deadline: request.timeoutMs === null ? Infinity : started + request.timeoutMs,
    ...(request.signal ? { stop: request.signal } : {}),
    ...(request.devices ? { devices: request.devices } : {}),
    ...(request.packages ? { packages: request.packages } : {}),
    ...(request.onProgress ? { progress: request.onProgress } : {}),
  });
  const stdout = new OutputCap(request.maxOutputBytes);
  const stderr = new OutputCap(request.maxOutputBytes);
  let exit = 0;
  let timedOut = false;
  try {
    const tell = request.onOutput;
    exit = await shell.runMain(request.command, {
      stdin: '',
      out: tell
        ? (t) => {
            stdout.write(t);
            tell('stdout', displayText(t));
          }
        : (t) => stdout.write(t),
      err: tell
        ? (t) => {
            stderr.write(t);
            tell('stderr', displayText(t));
          }
        : (t) => stderr.write(t),
    });
  } catch (error) {
    if (error instanceof ExitSignal) exit = error.code;
    else if (error instanceof TimeoutSignal) {
      timedOut = request.signal?.aborted !== true;
      exit = -1;
    } else {
      stderr.write(`sh: ${error instanceof Error ? error.message : String(error)}\n`);
      exit = 2;
    }
  }
  if (request.session) {
    const { cwd, vars, exported, arrays, assoc, functions, options, oldCwd } = shell.state;
    request.session.state = {
      cwd,
      vars,
      exported,
      arrays,
      assoc,
      functions,
      options,
      ...(oldCwd !== undefined ? { oldCwd } : {}),
    };
  }
  const applied = await applyBufferedChanges(
    request.fs,
    (rel) => (rel === '' ? request.root : `${request.root === '/' ? '' : request.root}/${rel}`),
    fs.changes(),
    request.apply,
  );
  return {
    exit_code: request.signal?.aborted ? -1 : exit,
    killed: request.signal?.aborted === true,
    stdout: displayText(stdout.text()),
    stderr: displayText(stderr.text()),
    timed_out: timedOut,
    truncated: stdout.truncated || stderr.truncated,
    duration_ms: Date.now() - started,
    applied,
  };
}
