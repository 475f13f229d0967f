import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import {
  toolsetOf,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
  type ToolsetOptions,
} from '../toolsets/index.js';
import type { SnapshotOptions } from '../snapshots/store.js';
import type { Workspace, WorkspaceOptions } from '../workspace-core.js';
import type { ManifestLoad } from './manifests/load.js';
import { nodeToolset } from './mcp/workspace.js';
import { mergeTools, nodeTools, type NodeToolsOptions } from './node-tools.js';
import { folderLock } from './process/folder-lock.js';
import type { TaskRegistry } from './process/tasks.js';
import type { ModelCaps } from './manifests/output.js';
import type { SandboxMode } from './process/sandbox.js';
import type { WorkspacePolicy } from '../workspace/policy.js';

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

/** A workspace over a real folder, with processes, background tasks and manifest tools. */
export interface NodeWorkspace extends Workspace {
  /** background tasks; task events (notes, exits) arrive through tasks.onEvent */
  readonly tasks: TaskRegistry;
  /** what loading `toolsDir` found, for warnings and doctor */
  readonly manifests: ManifestLoad | null;
  /** the toolset this workspace offers, with its wire envelope and export formats */
  readonly toolset: Toolset;
  /**
   * What manifest tools are told the model takes (ZAGENT_CAPS) and attach media by: the `caps`
   * option over the seed's defaults. runAgent narrows it to its provider's caps for the run.
   */
  readonly caps: ModelCaps;
}

/** Options of {@link openToolsetWorkspace}: what the CLI and the MCP server can ask for. */
export interface ToolsetWorkspaceOptions {
  /** a folder of tool manifests (seed 003) whose tools join the toolset */
  toolsDir?: string;
  /** cowork's artifact folder, relative to the workspace root */
  artifactDir?: string;
  /** when snapshots are taken (default after every mutating call); false turns them off */
  snapshots?: SnapshotOptions | false;
  /** where commands run: `os` (bubblewrap) or `none`; default `os` where bubblewrap works */
  sandbox?: SandboxMode;
  /** the workspace's rules, its approver (`confirm`) among them */
  policy?: WorkspacePolicy;
  /** what the model can take in, as manifest tools read it from ZAGENT_CAPS */
  caps?: Partial<ModelCaps>;
  /** offer git_clone, git_push and git_pull (see NodeToolsOptions.gitTools) */
  gitTools?: NodeToolsOptions['gitTools'];
}

/**
 * A long-lived Node host prepares spare object files while idle (see Spares), and removes the
 * unused ones when it closes.
 */
export function keepSpares(ws: Workspace): void {
  const store = ws.snapshots;
  if (!store) return;
  store.useSpares();
  ws.onClose(() => store.releaseSpares());
}

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
  const root = resolve(folder);
  // Real processes only: a tool left without Node's runner stays NOT_SUPPORTED rather than quietly becoming the built-in shell.
  const fs = createNodeFs({ root });
  // kept 20 ms after a change: a model's parallel calls and a replay arrive closer together than that
  const lock = folderLock(root, { lingerMs: 20 });
  const ws = createWorkspace({ processLock: lock, ...rest, fs, root, tools: set.tools, processRunner: false });
  node.attach(ws);
  ws.onClose(() => {
    lock.close();
    return fs.close?.();
  });
  keepSpares(ws);
  return Object.assign(ws, { tasks: node.tasks, manifests: node.manifests, toolset: set, caps: node.caps });
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
  tasks: TaskRegistry;
} {
  const ws = openNodeWorkspace(folder, { ...options, toolset: name });
  return { ws, set: ws.toolset, tasks: ws.tasks };
}
