import { s, type Infer } from '../contract/index.js';
import { defineTool, READ_ONLY, type ToolDefinition } from './schema/define.js';
import type { TaskRegistry } from '../process/task-registry.js';

const taskId = s.string({ description: 'The task_id run_command (background: true) or a background tool returned.' });
const STATUSES = ['running', 'exited', 'killed', 'timed_out'] as const;

/** A task as list_tasks shows it. */
const taskInfo = {
  task_id: s.string(),
  command: s.string({ description: "The command line, or the background tool's name." }),
  status: s.enum(STATUSES),
  exit_code: s.nullable(s.integer()),
  started_at: s.string({ description: 'ISO 8601 time.' }),
  duration_ms: s.number(),
};

/** A task with its output since the last read. */
const taskOutputProperties = {
  ...taskInfo,
  stdout: s.string(),
  stderr: s.string(),
  truncated: s.boolean(),
  result: s.optional(s.unknown({ description: "A background tool's result, once it has ended." })),
};
const taskOutput = s.object(taskOutputProperties);
const taskWait = s.object({
  ...taskOutputProperties,
  wait_timed_out: s.boolean({ description: 'true: it is still running.' }),
});
// The registry reports tasks as plain records; these are their shapes.
const asOutput = (r: Record<string, unknown>) => r as Infer<typeof taskOutput>;

// The task tools only make sense beside the run_command that starts background tasks: canonical's.
const offeredBy = ['canonical'] as const;

/** task_output, task_wait, task_kill and list_tasks over one workspace's background tasks. */
export function taskTools(tasks: TaskRegistry): ToolDefinition[] {
  return [
    defineTool({
      name: 'task_output',
      title: 'Read task output',
      description: "Read a background task's new stdout and stderr (since the last read) and its status.",
      mutates: false,
      // Each read moves the task's output cursor, so a repeat answers differently.
      annotations: { ...READ_ONLY, idempotent: false },
      toolsets: offeredBy,
      schema: s.object({ task_id: taskId }),
      resultSchema: taskOutput,
      run: async (args) => asOutput(tasks.output(args.task_id)),
    }),
    defineTool({
      name: 'task_wait',
      title: 'Wait for task',
      description:
        'Wait for a background task to end (up to timeout_seconds, default 30), then return its status, exit code and new output. ' +
        'wait_timed_out: true means it is still running. Notes the task writes while waiting arrive as progress.',
      mutates: false,
      annotations: { ...READ_ONLY, idempotent: false },
      toolsets: offeredBy,
      schema: s.object({
        task_id: taskId,
        timeout_seconds: s.optional(
          s.number({ minimum: 0, maximum: 3600, description: 'How long to wait (default 30).' }),
        ),
      }),
      resultSchema: taskWait,
      run: async (args, ctx) => {
        // Each note the task writes while we wait is this call's progress (an MCP client shows it).
        let notes = 0;
        const stop = tasks.onEvent((event) => {
          if (event.type === 'task_note' && event.task_id === args.task_id)
            ctx.progress(++notes, undefined, event.text);
        });
        try {
          return (await tasks.wait(args.task_id, (args.timeout_seconds ?? 30) * 1000, ctx.signal)) as Infer<
            typeof taskWait
          >;
        } finally {
          stop();
        }
      },
    }),
    defineTool({
      name: 'task_kill',
      title: 'Stop task',
      description: 'Stop a background task and everything it started; returns its final status and unread output.',
      mutates: false,
      // It ends a process (and whatever that process was doing), which is a change to the world.
      annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: true },
      toolsets: offeredBy,
      schema: s.object({ task_id: taskId }),
      resultSchema: taskOutput,
      run: async (args) => asOutput(await tasks.kill(args.task_id)),
    }),
    defineTool({
      name: 'list_tasks',
      title: 'List tasks',
      description: 'List the background tasks of this workspace with their status.',
      mutates: false,
      annotations: READ_ONLY,
      toolsets: offeredBy,
      schema: s.object({}),
      resultSchema: s.object({ tasks: s.array(s.object(taskInfo)) }),
      run: async () => ({ tasks: tasks.list() }),
    }),
  ];
}
