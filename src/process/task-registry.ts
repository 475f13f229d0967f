import { ToolError } from '../contract/index.js';

/**
 * How a background task ended, as every host's runner reports it (Node's child processes, the
 * browser's shell). A host's outcome may carry more (a manifest tool's `finish` reads it).
 */
export interface TaskOutcome {
  /** the exit status; -1 after a kill or a timeout */
  exit_code: number;
  /** stopped by its timeout */
  timed_out: boolean;
  /** ended by kill() */
  killed: boolean;
  /** how long it ran */
  duration_ms: number;
  /** the change its writes became, for a runner that writes through the workspace (the shell) */
  change_id?: string;
}

/** A started background command, whatever runs it. */
export interface TaskProcess<C, O extends TaskOutcome = TaskOutcome> {
  /** settles once it has ended (its writes applied, for a runner that writes itself) */
  readonly done: Promise<O>;
  /** Listen to output as it arrives, so task_output reads it incrementally. */
  onOutput(listener: (stream: 'stdout' | 'stderr', chunk: C) => void): void;
  /** End it and everything it started; `done` then says killed. */
  kill(): void;
}

/** A task's unread output on one stream, capped (head and tail) as the host caps a command's output. */
export interface TaskStream<C> {
  /** take in a chunk the task wrote */
  push(chunk: C): void;
  /** the text so far, cut in the middle past the cap */
  read(): {
    /** what the task wrote since the last reset, as text */
    text: string;
    /** some of it was cut to keep within the cap */
    truncated: boolean;
  };
  /** forget what was read */
  reset(): void;
}

/** Where a background task is: still running, exited, killed, or stopped by its timeout. */
export type TaskStatus = 'running' | 'exited' | 'killed' | 'timed_out';

/** A background task as list_tasks shows it. */
export interface TaskInfo {
  /** the id task_output, task_wait and task_kill take */
  task_id: string;
  /** the command line, or the manifest tool's name */
  command: string;
  /** where it is */
  status: TaskStatus;
  /** its exit status, once it exited */
  exit_code: number | null;
  /** when it started, ISO 8601 */
  started_at: string;
  /** how long it has run */
  duration_ms: number;
}

/** What the host hears about background tasks: notes they write, and their end. */
export type TaskEvent =
  | {
      /** the task wrote a line to its notify file */
      type: 'task_note';
      /** which task */
      task_id: string;
      /** the note */
      text: string;
      /** the line asks to wake an idle agent */
      wake: boolean;
    }
  | {
      /** the task ended */
      type: 'task_exit';
      /** which task */
      task_id: string;
      /** how it ended */
      status: TaskStatus;
      /** its exit status, when it exited */
      exit_code: number | null;
      /** a manifest tool's parsed result, when it has one */
      result?: unknown;
      /** the change the task's writes became, when its runner logs them itself (the browser shell) */
      change_id?: string;
    };

/** Told of each task event (started, output, exited). */
export type TaskListener = (event: TaskEvent) => void;

interface Task<C> {
  info: TaskInfo;
  process: TaskProcess<C, TaskOutcome>;
  stdout: TaskStream<C>;
  stderr: TaskStream<C>;
  outcome?: TaskOutcome;
  result?: unknown;
  settled: Promise<void>;
}

/**
 * The background tasks of one workspace, over any host's processes (chunks of type `C`: Node's
 * Buffers, the shell's text). Each task's unread output is kept in streams `newStream` makes
 * (capped, head and tail), so task_output returns what is new since the last read. closeAll()
 * ends them all.
 */
export class TaskRegistry<C = unknown> {
  private readonly tasks = new Map<string, Task<C>>();
  private readonly listeners = new Set<TaskListener>();
  private counter = 0;

  constructor(private readonly newStream: () => TaskStream<C>) {}

  /**
   * Track a started process. `finish` turns its outcome into the task's final result (a manifest
   * tool's reply); `afterExit` runs when it ends (the workspace's rescan).
   */
  add<O extends TaskOutcome>(
    process: TaskProcess<C, O>,
    command: string,
    options: {
      finish?: (outcome: O) => Promise<unknown>;
      afterExit?: () => Promise<void>;
    } = {},
  ): TaskInfo {
    const id = `task_${++this.counter}`;
    const info: TaskInfo = {
      task_id: id,
      command,
      status: 'running',
      exit_code: null,
      started_at: new Date().toISOString(),
      duration_ms: 0,
    };
    const task: Task<C> = {
      info,
      process,
      stdout: this.newStream(),
      stderr: this.newStream(),
      settled: Promise.resolve(),
    };
    process.onOutput((stream, chunk) => task[stream].push(chunk));
    task.settled = process.done.then(async (outcome) => {
      task.outcome = outcome;
      if (options.finish)
        task.result = await options
          .finish(outcome)
          .catch((e: unknown) => ({ is_error: true, output: String((e as Error).message ?? e) }));
      await options.afterExit?.().catch(() => {});
      info.status = outcome.timed_out ? 'timed_out' : outcome.killed ? 'killed' : 'exited';
      info.exit_code = outcome.exit_code;
      info.duration_ms = outcome.duration_ms;
      this.emit({
        type: 'task_exit',
        task_id: id,
        status: info.status,
        exit_code: info.exit_code,
        ...(options.finish ? { result: task.result } : {}),
        ...(outcome.change_id ? { change_id: outcome.change_id } : {}),
      });
    });
    this.tasks.set(id, task);
    return { ...info };
  }

  /** Output since the last read, and the task's state. */
  output(id: string): Record<string, unknown> {
    const task = this.get(id);
    const out = task.stdout.read();
    const err = task.stderr.read();
    task.stdout.reset();
    task.stderr.reset();
    return {
      ...this.snapshot(task),
      stdout: out.text,
      stderr: err.text,
      truncated: out.truncated || err.truncated,
      ...(task.info.status !== 'running' && task.result !== undefined ? { result: task.result } : {}),
    };
  }

  /**
   * Wait until the task ends, `timeoutMs` passes or `signal` aborts (the caller gave up: the task
   * runs on); either way, report it with its new output.
   */
  async wait(id: string, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
    const task = this.get(id);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopWaiting = () => {};
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), timeoutMs);
      stopWaiting = () => resolve(true);
      signal?.addEventListener('abort', stopWaiting, { once: true });
    });
    const finished = await Promise.race([task.settled.then(() => false), expired]);
    clearTimeout(timer);
    signal?.removeEventListener('abort', stopWaiting);
    return { ...this.output(id), wait_timed_out: finished };
  }

  /** Kill the task (Node: its whole process group) and wait for it to end. */
  async kill(id: string): Promise<Record<string, unknown>> {
    const task = this.get(id);
    task.process.kill();
    await task.settled;
    return this.output(id);
  }

  /** Every task this workspace started, running or not. */
  list(): TaskInfo[] {
    return [...this.tasks.values()].map((t) => this.snapshot(t));
  }

  /** Listen to task events; the returned function stops listening. */
  onEvent(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tell every listener of an event; a listener that throws is ignored. */
  emit(event: TaskEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        /* a host's listener cannot break a task */
      }
    }
  }

  /** End every running task (the workspace is closing) and wait until they are gone. */
  async closeAll(): Promise<void> {
    const running = [...this.tasks.values()].filter((t) => t.info.status === 'running');
    for (const task of running) task.process.kill();
    await Promise.all(running.map((t) => t.settled));
  }

  private snapshot(task: Task<C>): TaskInfo {
    const info = { ...task.info };
    if (info.status === 'running') info.duration_ms = Date.now() - Date.parse(info.started_at);
    return info;
  }

  private get(id: string): Task<C> {
    const task = this.tasks.get(id);
    if (!task) {
      throw new ToolError('NOT_FOUND', `there is no task '${id.slice(0, 60)}'`, {
        hint: this.tasks.size
          ? `Known tasks: ${[...this.tasks.keys()].join(', ')}.`
          : 'No background task has been started; run_command with background: true starts one.',
      });
    }
    return task;
  }
}
