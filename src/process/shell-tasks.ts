import type { WorkspaceFs } from '../fs/types.js';
import type { CommandFn, PackageSettings } from '../shell/context.js';
import { OutputCap } from '../shell/output-cap.js';
import { parseNote } from './notify-note.js';
import type { CommandRequest } from './process-runner.js';
import { TaskRegistry, type TaskOutcome, type TaskProcess, type TaskStream } from './task-registry.js';

/** Where a background shell command writes its notes: a device file, so nothing lands in the workspace. */
export const SHELL_NOTIFY_FILE = '/dev/notify';

/** One stream of a task's unread output, capped as the shell caps a foreground command's. */
class ShellTaskStream implements TaskStream<string> {
  private cap: OutputCap;
  constructor(private readonly maxOutputBytes?: number) {
    this.cap = new OutputCap(maxOutputBytes);
  }
  push(chunk: string): void {
    this.cap.write(chunk);
  }
  read(): { text: string; truncated: boolean } {
    return { text: this.cap.text(), truncated: this.cap.truncated };
  }
  reset(): void {
    this.cap = new OutputCap(this.maxOutputBytes);
  }
}

/**
 * The background tasks of a workspace whose commands run in the built-in shell: give it to
 * `createShellRunner` (or `createPageRunner`) as `tasks`, and to `taskTools` for task_output,
 * task_wait, task_kill and list_tasks. Each stream's unread output keeps `maxOutputBytes`
 * (default 16 KiB, head and tail).
 */
export function createShellTaskRegistry(maxOutputBytes?: number): TaskRegistry<string> {
  return new TaskRegistry<string>(() => new ShellTaskStream(maxOutputBytes));
}

interface ShellTaskSetup {
  fs: WorkspaceFs;
  root: string;
  command: string;
  maxOutputBytes?: number;
  extraCommands?: Record<string, CommandFn>;
  packages?: PackageSettings;
}

/**
 * Start a command line in the shell without waiting for it, as a task in `tasks`. Its writes are
 * applied through the workspace's write path when it ends (killed or timed out too, as a real
 * shell's would have been made), then `request.settle` logs them as one change and snapshots them.
 * Lines it writes to `$ZAGENT_NOTIFY_FILE` become the task's `task_note` events.
 */
export function startShellTask(tasks: TaskRegistry<string>, setup: ShellTaskSetup, request: CommandRequest): string {
  const apply = request.apply;
  if (!apply) throw new Error("the shell runs inside run_command, which hands it the workspace's write path");
  const stop = new AbortController();
  const listeners: Array<(stream: 'stdout' | 'stderr', chunk: string) => void> = [];
  let taskId = '';
  let partial = '';
  const note = (line: string) => {
    const parsed = parseNote(line);
    if (parsed) tasks.emit({ type: 'task_note', task_id: taskId, ...parsed });
  };
  const notify = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop()!;
    for (const line of lines) note(line);
  };
  const started = Date.now();
  // Deferred a turn, so the task has its id before the first note or output.
  const done = Promise.resolve().then(async (): Promise<TaskOutcome> => {
    try {
      const { runShell } = await import('../shell/run.js');
      const result = await runShell({
        fs: setup.fs,
        root: setup.root,
        command: setup.command,
        cwd: request.cwdDisplay,
        env: { ZAGENT_NOTIFY_FILE: SHELL_NOTIFY_FILE, SANDPIT_NOTIFY_FILE: SHELL_NOTIFY_FILE, ...request.env },
        timeoutMs: request.timeoutMs,
        apply,
        signal: stop.signal,
        onOutput: (stream, text) => {
          for (const listener of listeners) listener(stream, text);
        },
        devices: new Map([[SHELL_NOTIFY_FILE, notify]]),
        ...(setup.maxOutputBytes ? { maxOutputBytes: setup.maxOutputBytes } : {}),
        ...(setup.extraCommands ? { extraCommands: setup.extraCommands } : {}),
        ...(setup.packages ? { packages: setup.packages } : {}),
      });
      if (partial) note(partial);
      const changeId = await request.settle?.(result.applied).catch(() => undefined);
      return {
        exit_code: result.exit_code,
        timed_out: result.timed_out,
        killed: result.killed,
        duration_ms: result.duration_ms,
        ...(changeId ? { change_id: changeId } : {}),
      };
    } catch (error) {
      // The shell reports its own failures as output; this is its code failing to load or the write path failing.
      const message = `sh: ${error instanceof Error ? error.message : String(error)}\n`;
      for (const listener of listeners) listener('stderr', message);
      return { exit_code: 2, timed_out: false, killed: stop.signal.aborted, duration_ms: Date.now() - started };
    }
  });
  const process: TaskProcess<string> = {
    done,
    onOutput: (listener) => {
      listeners.push(listener);
    },
    kill: () => stop.abort(),
  };
  taskId = tasks.add(process, setup.command).task_id;
  return taskId;
}
