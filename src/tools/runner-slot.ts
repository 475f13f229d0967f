import type { ToolDefinition } from './schema/define.js';
import type { FindExternalChanges } from './external-changes.js';
import type { ProcessRunner } from '../process/process-runner.js';

/** Builds the same tool over a runner: its run_command then runs commands instead of answering NOT_SUPPORTED. */
export type RunnerBinding = (runner: ProcessRunner, findChanges?: FindExternalChanges) => ToolDefinition;

// Keyed by the very object a toolset hands out: a copy made with `{ ...tool }` (a host's own
// rewording) is no longer known here, so it keeps answering NOT_SUPPORTED rather than gaining a
// runner its author did not plan for.
const awaiting = new WeakMap<ToolDefinition, RunnerBinding>();

/**
 * Mark a tool that runs programs but was made without a runner (canonical's run_command,
 * fs_process's): the workspace binds it to its runner, the built-in shell unless the host gives
 * its own. A tool made over a runner (Node's) is never marked, so it is never rebound.
 */
export function awaitRunner<T extends ToolDefinition>(tool: T, bind: RunnerBinding): T {
  awaiting.set(tool, bind);
  return tool;
}

/** Whether a tool is waiting for a runner (see {@link awaitRunner}). */
export function awaitsRunner(tool: ToolDefinition): boolean {
  return awaiting.has(tool);
}

/** The tool over `runner` when it was waiting for one; otherwise the tool itself. */
export function bindRunner(
  tool: ToolDefinition,
  runner: ProcessRunner,
  findChanges?: FindExternalChanges,
): ToolDefinition {
  const bind = awaiting.get(tool);
  return bind ? bind(runner, findChanges) : tool;
}
