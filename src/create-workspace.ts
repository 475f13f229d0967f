import { canonicalTools } from './toolsets/canonical.js';
import { createWorkspaceCore, type Workspace, type WorkspaceOptions } from './workspace/workspace.js';

/**
 * Create a workspace: `call(tool, args)` runs a tool and returns its envelope, `listTools()`
 * describes the tools. Without `tools` it offers the canonical toolset.
 */
export function createWorkspace(options: WorkspaceOptions): Workspace {
  return createWorkspaceCore({ ...options, tools: options.tools ?? canonicalTools });
}
