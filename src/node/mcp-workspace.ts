import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import { toolset, type Toolset, type ToolsetName } from '../toolsets/index.js';
import type { SnapshotOptions } from '../snapshots/store.js';
import type { Workspace } from '../workspace-core.js';
import { nodeTools, type NodeToolset } from './node-tools.js';
import { folderLock } from './process-lock.js';
import { keepSpares } from './open.js';

// Node tools that only the canonical surface offers; a seed toolset keeps to its own list.
const TASK_TOOLS = new Set(['task_output', 'task_wait', 'task_kill', 'list_tasks']);

export interface ToolsetWorkspaceOptions {
  /** a folder of tool manifests (seed 003) whose tools join the toolset */
  toolsDir?: string;
  /** cowork's artifact folder, relative to the workspace root */
  artifactDir?: string;
  /** when snapshots are taken (default after every mutating call); false turns them off */
  snapshots?: SnapshotOptions | false;
}

/**
 * A workspace over a real folder (it must exist) offering one named toolset: `canonical` with
 * real processes and the task tools, or a seed toolset with exactly its own tools (fs_process's
 * run_command running real processes), plus any manifest tools. close() ends its tasks.
 */
export function openToolsetWorkspace(folder: string, name: ToolsetName, options: ToolsetWorkspaceOptions = {}): { ws: Workspace; set: Toolset } {
  const node = nodeTools(options.toolsDir === undefined ? {} : { toolsDir: options.toolsDir });
  const set = nodeToolset(name, node, options.artifactDir);
  const ws = createWorkspace({
    fs: createNodeFs(), root: resolve(folder), processLock: folderLock(resolve(folder)), tools: set.tools, ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }),
  });
  node.attach(ws);
  keepSpares(ws);
  return { ws, set };
}

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(name: ToolsetName, node: NodeToolset, artifactDir?: string): Toolset {
  return toolset(name, {
    runCommand: node.tools.find((t) => t.name === 'run_command'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.name !== 'run_command' && (name === 'canonical' || !TASK_TOOLS.has(t.name))),
  });
}
