import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import type { NativeToolsetName, Toolset, ToolsetName } from '../toolsets/toolset-core.js';
import type { SnapshotOptions } from '../snapshots/store.js';
import type { Workspace, WorkspaceOptions } from '../workspace-core.js';
import type { ManifestLoad } from './manifests/load.js';
import type { ModelCaps } from './manifests/output.js';
import { makeNodeTools, type NodeToolset, type NodeToolsOptions } from './node-tools-core.js';
import { folderLock } from './process/folder-lock.js';
import type { SandboxMode } from './process/sandbox.js';
import type { ProcessTaskRegistry } from './process/tasks.js';
import { loadNodeToolset } from './toolset-load.js';
import type { WorkspacePolicy } from '../workspace/policy.js';

/** A workspace over a real folder, with processes, background tasks and manifest tools. */
export interface NodeWorkspace extends Workspace {
  /** background tasks; task events (notes, exits) arrive through tasks.onEvent */
  readonly tasks: ProcessTaskRegistry;
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

/** The rest of openNodeWorkspace once its toolset is made: the backend, the folder lock, the workspace. */
export function openNodeWorkspaceOver(
  folder: string,
  set: Toolset,
  node: NodeToolset,
  options: Omit<WorkspaceOptions, 'fs' | 'root' | 'tools'>,
  watch = true,
): NodeWorkspace {
  const root = resolve(folder);
  // Real processes only: a tool left without Node's runner stays NOT_SUPPORTED rather than quietly becoming the built-in shell.
  const fs = createNodeFs({ root });
  // A change feed narrows the rescans after the first, which looks at everything anyway: for a
  // process that makes one call, its watcher thread and a watch per folder would serve no pass.
  if (!watch) delete fs.watchChanges;
  // kept 20 ms after a change: a model's parallel calls and a replay arrive closer together than that
  const lock = folderLock(root, { lingerMs: 20 });
  const ws = createWorkspace({ processLock: lock, ...options, fs, root, tools: set.tools, processRunner: false });
  node.attach(ws);
  ws.onClose(() => {
    lock.close();
    return fs.close?.();
  });
  keepSpares(ws);
  return Object.assign(ws, { tasks: node.tasks, manifests: node.manifests, toolset: set, caps: node.caps });
}

/**
 * openToolsetWorkspace for a process that serves one toolset (the CLI): only that toolset's
 * modules load, and the manifest loader only with a tools folder.
 */
export async function openToolsetWorkspaceLazily(
  folder: string,
  name: ToolsetName | NativeToolsetName,
  options: ToolsetWorkspaceOptions = {},
  watch = true,
): Promise<{ ws: NodeWorkspace; set: Toolset; tasks: ProcessTaskRegistry }> {
  const { artifactDir, ...rest } = options;
  const support = rest.toolsDir !== undefined ? (await import('./node-tools.js')).manifestSupport : null;
  const node = makeNodeTools(rest, support);
  const set = await loadNodeToolset(name, node, artifactDir);
  const ws = openNodeWorkspaceOver(folder, set, node, rest, watch);
  return { ws, set, tasks: ws.tasks };
}
