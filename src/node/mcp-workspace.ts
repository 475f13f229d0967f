import { toolset, type Toolset, type ToolsetName } from '../toolsets/index.js';
import type { NodeToolset } from './node-tools.js';

// Node tools that only the canonical surface offers; a seed toolset keeps to its own list.
const TASK_TOOLS = new Set(['task_output', 'task_wait', 'task_kill', 'list_tasks']);

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(name: ToolsetName, node: NodeToolset, artifactDir?: string): Toolset {
  return toolset(name, {
    runCommand: node.tools.find((t) => t.name === 'run_command'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.name !== 'run_command' && (name === 'canonical' || !TASK_TOOLS.has(t.name))),
  });
}
