import type { ProcessRunner } from './tools/process-runner.js';
import { createRunCommandTool } from './tools/run-command.js';
import { canonicalTools } from './toolsets/canonical.js';
import { createWorkspaceCore, type Workspace, type WorkspaceOptions } from './workspace-core.js';

export interface CreateWorkspaceOptions extends WorkspaceOptions {
  /** How run_command runs programs; without one, run_command answers NOT_SUPPORTED. */
  processRunner?: ProcessRunner;
}

/**
 * Create a workspace: `call(tool, args)` runs a tool and returns its envelope, `listTools()`
 * describes the tools. Without `tools` it offers the canonical toolset.
 */
export function createWorkspace(options: CreateWorkspaceOptions): Workspace {
  const base = options.tools ?? canonicalTools;
  const runner = options.processRunner;
  if (!runner) return createWorkspaceCore({ ...options, tools: base });
  // A command may change any file, so the workspace rescans after it to log and snapshot the changes.
  const runCommand = createRunCommandTool(runner, async () => (await ws.rescan())?.changed ?? []);
  const ws: Workspace = createWorkspaceCore({ ...options, tools: base.map((t) => (t.slot === runCommand.slot ? runCommand : t)) });
  return ws;
}
