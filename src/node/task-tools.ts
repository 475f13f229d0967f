import { defineTool, type ToolDefinition } from '../tools/define.js';
import type { TaskRegistry } from './tasks.js';

const taskId = { type: 'string', description: 'The task_id run_command (background: true) or a background tool returned.' };

/** task_output, task_wait, task_kill and list_tasks over one workspace's background tasks. */
export function taskTools(tasks: TaskRegistry): ToolDefinition[] {
  return [
    defineTool<{ task_id: string }, unknown>({
      name: 'task_output',
      description: "Read a background task's new stdout and stderr (since the last read) and its status.",
      mutates: false,
      schema: { type: 'object', properties: { task_id: taskId }, required: ['task_id'], additionalProperties: false },
      run: async (args) => tasks.output(args.task_id),
    }),
    defineTool<{ task_id: string; timeout_seconds?: number }, unknown>({
      name: 'task_wait',
      description: 'Wait for a background task to end (up to timeout_seconds, default 30), then return its status, exit code and new output. ' +
        'wait_timed_out: true means it is still running.',
      mutates: false,
      schema: {
        type: 'object',
        properties: { task_id: taskId, timeout_seconds: { type: 'number', minimum: 0, maximum: 3600, description: 'How long to wait (default 30).' } },
        required: ['task_id'],
        additionalProperties: false,
      },
      run: (args) => tasks.wait(args.task_id, (args.timeout_seconds ?? 30) * 1000),
    }),
    defineTool<{ task_id: string }, unknown>({
      name: 'task_kill',
      description: 'Stop a background task and everything it started; returns its final status and unread output.',
      mutates: false,
      schema: { type: 'object', properties: { task_id: taskId }, required: ['task_id'], additionalProperties: false },
      run: (args) => tasks.kill(args.task_id),
    }),
    defineTool<Record<string, never>, unknown>({
      name: 'list_tasks',
      description: 'List the background tasks of this workspace with their status.',
      mutates: false,
      schema: { type: 'object', properties: {}, additionalProperties: false },
      run: async () => ({ tasks: tasks.list() }),
    }),
  ];
}
