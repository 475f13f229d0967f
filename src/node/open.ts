import {
  toolsetOf,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
} from '../toolsets/index.js';
import type { WorkspaceOptions } from '../workspace-core.js';
import { nodeToolset } from './mcp/workspace.js';
import { mergeTools, nodeTools, type NodeToolsOptions } from './node-tools.js';
import type { ProcessTaskRegistry } from './process/tasks.js';
import { openNodeWorkspaceOver, type NodeWorkspace, type ToolsetWorkspaceOptions } from './open-core.js';

export { keepSpares, type NodeWorkspace, type ToolsetWorkspaceOptions } from './open-core.js';

/** What `openNodeWorkspace` takes: the workspace's options (without `fs` and `root`) and Node's tools. */
export type NodeWorkspaceOptions = Omit<WorkspaceOptions, 'fs' | 'root'> &
  NodeToolsOptions & {
    /** the toolset offered (default `canonical`), with Node's tools joining it; ignored when `tools` is given */
    toolset?: ToolsetName | NativeToolsetName;
    /** for the anthropic toolset: the editor's max_characters and bash's timeout in seconds */
    native?: Pick<ToolsetOptions, 'maxCharacters' | 'bashTimeoutSeconds'>;
    /** cowork's artifact folder, relative to the workspace root */
    artifactDir?: string;
  };

/**
 * The one way to open a workspace over a real folder (made absolute; it must exist), used by the
 * API, the CLI and the MCP server. It offers the named toolset (default canonical) with real
 * processes behind run_command, the task tools (canonical only) and any manifest tools from
 * `toolsDir`; `tools` replaces the toolset with a list of one's own, Node's tools joining it.
 * close() ends its background tasks and removes unused spare objects.
 */
export function openNodeWorkspace(folder: string, options: NodeWorkspaceOptions = {}): NodeWorkspace {
  const { toolset: name = 'canonical', artifactDir, tools, native, ...rest } = options;
  const node = nodeTools(rest);
  const set = tools
    ? toolsetOf('canonical', mergeTools(tools, node.tools))
    : nodeToolset(name, node, artifactDir, native);
  return openNodeWorkspaceOver(folder, set, node, rest);
}

/**
 * A workspace over a real folder offering one named toolset: `canonical` with real processes and
 * the task tools, or a seed toolset with exactly its own tools (fs_process's run_command running
 * real processes), plus any manifest tools. The same as {@link openNodeWorkspace}, answered as
 * the workspace and its toolset.
 */
export function openToolsetWorkspace(
  folder: string,
  name: ToolsetName | NativeToolsetName,
  options: ToolsetWorkspaceOptions = {},
): {
  /** the workspace */
  ws: NodeWorkspace;
  /** the toolset it offers */
  set: Toolset;
  /** its background tasks */
  tasks: ProcessTaskRegistry;
} {
  const ws = openNodeWorkspace(folder, { ...options, toolset: name });
  return { ws, set: ws.toolset, tasks: ws.tasks };
}
