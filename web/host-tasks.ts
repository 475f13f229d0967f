import { exitNote } from '../src/agent/task-inbox.js';
import { createShellTaskRegistry } from '../src/process/shell-tasks.js';
import type { ToolDefinition } from '../src/tools/schema/define.js';
import type { TaskRegistry } from '../src/process/task-registry.js';
import { taskTools } from '../src/tools/task-tools.js';
import type { TaskNoteEvent } from './protocol.js';

/** A workspace's background tasks in the worker: the registry its shell starts them in, and the tools over it. */
export interface HostTasks {
  tasks: TaskRegistry<string>;
  /** task_output, task_wait, task_kill and list_tasks */
  tools: ToolDefinition[];
}

/**
 * The background tasks of the worker's workspace. Each note a task writes and each task's end
 * goes to `tell` as the page's inbox takes it: the exit as the same note Node's `taskInbox` gives,
 * with the change its writes became (so the page does not also report them as the person's).
 * Loaded with canonical, as cowork's tools load with cowork, not with every worker.
 */
export function hostTasks(tell: (event: TaskNoteEvent) => void): HostTasks {
  const tasks = createShellTaskRegistry();
  tasks.onEvent((event) => {
    const command = tasks.list().find((t) => t.task_id === event.task_id)?.command ?? 'a command';
    tell(
      event.type === 'task_note'
        ? { task_id: event.task_id, text: event.text, wake: event.wake, ended: false }
        : {
            task_id: event.task_id,
            text: exitNote(event, command),
            wake: true,
            ended: true,
            ...(event.change_id ? { change_id: event.change_id } : {}),
          },
    );
  });
  return { tasks, tools: taskTools(tasks) };
}
