import type { Experimental_SandboxProcess as SandboxProcess } from 'ai';

/** A tool call that answers the result or throws the refusal. */
export type CallTool = (tool: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

// How long one task_wait holds before handing over the output so far (the streams' granularity).
const WAIT_SECONDS = 1;

/**
 * A background task (run_command with background: true) as the SDK's `SandboxProcess`: its
 * output reaches the two streams as `task_wait` hands it over (at once when the task ends, else
 * about every second), `wait` gives its exit code, `kill` ends it through `task_kill` (the task
 * and everything it started). An abort kills it, and `wait` rejects with the abort's reason.
 */
export function spawnTask(call: CallTool, taskId: string, signal?: AbortSignal): SandboxProcess {
  const encoder = new TextEncoder();
  let out!: ReadableStreamDefaultController<Uint8Array>;
  let err!: ReadableStreamDefaultController<Uint8Array>;
  const stdout = new ReadableStream<Uint8Array>({ start: (c) => void (out = c) });
  const stderr = new ReadableStream<Uint8Array>({ start: (c) => void (err = c) });
  const push = (r: Record<string, unknown>) => {
    if (typeof r.stdout === 'string' && r.stdout !== '') out.enqueue(encoder.encode(r.stdout));
    if (typeof r.stderr === 'string' && r.stderr !== '') err.enqueue(encoder.encode(r.stderr));
  };
  let stopping: Promise<void> | undefined;
  const kill = () =>
    (stopping ??= call('task_kill', { task_id: taskId })
      .then(push)
      .catch(() => {}));
  const ended = (async () => {
    try {
      for (;;) {
        const r = await call('task_wait', { task_id: taskId, timeout_seconds: WAIT_SECONDS });
        push(r);
        if (r.status !== 'running') {
          if (stopping) await stopping;
          out.close();
          err.close();
          return { exitCode: typeof r.exit_code === 'number' ? r.exit_code : -1 };
        }
      }
    } catch (error) {
      out.error(error);
      err.error(error);
      throw error;
    }
  })();
  // A handle nobody waits on must not report an unhandled rejection.
  ended.catch(() => {});
  if (signal?.aborted) void kill();
  else signal?.addEventListener('abort', () => void kill(), { once: true });
  return {
    stdout,
    stderr,
    wait: async () => {
      const result = await ended;
      if (signal?.aborted) throw signal.reason;
      return result;
    },
    kill: async () => {
      await kill();
      await ended.catch(() => {});
    },
  };
}
