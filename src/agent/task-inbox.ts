import { NoteQueue, type AgentInbox } from './inbox.js';
import type { TaskEvent, TaskRegistry } from '../process/task-registry.js';

type Exit = Extract<TaskEvent, { type: 'task_exit' }>;

const clip = (text: string, max = 2000) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** The exit note: how the task ended, its result, and the files it produced (seed 003). */
export function exitNote(event: Exit, command: string): string {
  const how =
    event.status === 'exited'
      ? `exited with code ${event.exit_code}`
      : event.status === 'timed_out'
        ? 'timed out and was killed'
        : 'was killed';
  const parts = [`background task ${event.task_id} (${command}) ${how}`];
  const result = event.result as
    | { output?: unknown; is_error?: unknown; files?: Array<{ name?: unknown; size_bytes?: unknown }> }
    | undefined;
  if (result && typeof result === 'object') {
    if (typeof result.output === 'string' && result.output.trim() !== '')
      parts.push(`result${result.is_error === true ? ' (an error)' : ''}: ${clip(result.output.trim())}`);
    const files = (result.files ?? [])
      .filter((f) => typeof f.name === 'string')
      .map((f) => `${String(f.name)} (${Number(f.size_bytes)} bytes)`);
    parts.push(files.length ? `files produced: ${files.join(', ')}` : 'no files produced');
  } else {
    parts.push(`read its output with task_output ${event.task_id}`);
  }
  return parts.join('; ');
}

/**
 * A run's inbox over a workspace's background tasks: their notify-file lines become notes as
 * written (`{"wake": true}` lines wake an idle run), and each exit wakes it with a note naming the
 * task, its result and its files.
 * close() stops listening.
 */
export function taskInbox(tasks: TaskRegistry): AgentInbox & {
  /** stop listening to the tasks */
  close(): void;
} {
  const queue = new NoteQueue();
  const commandOf = (id: string) => tasks.list().find((t) => t.task_id === id)?.command ?? 'a command';
  const off = tasks.onEvent((event) => {
    // A note reaches the model as the tool wrote it (a JSON note by its text): a tool that wants to be told apart from others names itself.
    if (event.type === 'task_note') queue.push({ text: event.text, wake: event.wake });
    else queue.push({ text: exitNote(event, commandOf(event.task_id)), wake: true });
  });
  return {
    take: () => queue.take(),
    running: () => tasks.list().filter((t) => t.status === 'running').length,
    wakeWaiting: () => queue.wakeWaiting(),
    whenWoken: (signal) => queue.whenWoken(signal),
    close: () => {
      off();
    },
  };
}
