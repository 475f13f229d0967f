import { resolve } from 'node:path';
import { createWorkspace } from '../create-workspace.js';
import { createNodeFs } from '../fs/node.js';
import type { Workspace, WorkspaceOptions } from '../workspace/workspace.js';

/** A workspace over a real folder (made absolute; it must exist). */
export function openNodeWorkspace(folder: string, options: Omit<WorkspaceOptions, 'fs' | 'root'> = {}): Workspace {
  return createWorkspace({ ...options, fs: createNodeFs(), root: resolve(folder) });
}
