import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import { toolset, type Toolset, type ToolsetName } from '../toolsets/index.js';
import type { SnapshotOptions } from '../snapshots/store.js';
import type { Workspace } from '../workspace-core.js';
import type { WorkspacePolicy } from '../workspace/policy.js';
import type { ModelCaps } from './manifests/output.js';
import { nodeTools, type NodeToolset } from './node-tools.js';
import type { TaskRegistry } from './tasks.js';
import { keepSpares } from './open.js';
import type { SandboxMode } from './sandbox.js';

// Node tools that only the canonical surface offers; a seed toolset keeps to its own list.
const TASK_TOOLS = new Set(['task_output', 'task_wait', 'task_kill', 'list_tasks']);

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
}

/**
 * A workspace over a real folder (it must exist) offering one named toolset: `canonical` with
 * real processes and the task tools, or a seed toolset with exactly its own tools (fs_process's
 * run_command running real processes), plus any manifest tools. close() ends its tasks.
 */
export function openToolsetWorkspace(folder: string, name: ToolsetName, options: ToolsetWorkspaceOptions = {}): { ws: Workspace; set: Toolset; tasks: TaskRegistry } {
  const node = nodeTools({
    ...(options.toolsDir === undefined ? {} : { toolsDir: options.toolsDir }), ...(options.caps ? { caps: options.caps } : {}), ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const set = nodeToolset(name, node, options.artifactDir);
  const ws = createWorkspace({
    fs: createNodeFs({ root: resolve(folder) }), root: resolve(folder), tools: set.tools, ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  node.attach(ws);
  keepSpares(ws);
  return { ws, set, tasks: node.tasks };
}

/** The named toolset with Node's tools: real processes behind run_command, the task tools (canonical only) and manifest tools. */
export function nodeToolset(name: ToolsetName, node: NodeToolset, artifactDir?: string): Toolset {
  return toolset(name, {
    runCommand: node.tools.find((t) => t.name === 'run_command'),
    ...(artifactDir !== undefined ? { artifactDir } : {}),
    extra: node.tools.filter((t) => t.name !== 'run_command' && (name === 'canonical' || !TASK_TOOLS.has(t.name))),
  });
}
