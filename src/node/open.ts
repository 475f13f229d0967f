import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import { canonicalTools } from '../toolsets/canonical.js';
import type { Workspace, WorkspaceOptions } from '../workspace-core.js';
import type { ManifestLoad } from './manifests/load.js';
import { mergeTools, nodeTools, type NodeToolsOptions } from './node-tools.js';
import { folderLock } from './process-lock.js';
import type { TaskRegistry } from './tasks.js';

export type NodeWorkspaceOptions = Omit<WorkspaceOptions, 'fs' | 'root'> & NodeToolsOptions;

/** A workspace over a real folder, with processes, background tasks and manifest tools. */
export interface NodeWorkspace extends Workspace {
  /** background tasks; task events (notes, exits) arrive through tasks.onEvent */
  readonly tasks: TaskRegistry;
  /** what loading `toolsDir` found, for warnings and doctor */
  readonly manifests: ManifestLoad | null;
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
 * A workspace over a real folder (made absolute; it must exist). It offers `tools` (default the
 * canonical set) plus run_command, the task tools and any manifest tools from `toolsDir`.
 * close() ends its background tasks.
 */
export function openNodeWorkspace(folder: string, options: NodeWorkspaceOptions = {}): NodeWorkspace {
  const node = nodeTools(options);
  const root = resolve(folder);
  const ws = createWorkspace({ processLock: folderLock(root), ...options, fs: createNodeFs(), root, tools: mergeTools(options.tools ?? canonicalTools, node.tools) });
  node.attach(ws);
  keepSpares(ws);
  return Object.assign(ws, { tasks: node.tasks, manifests: node.manifests });
}
