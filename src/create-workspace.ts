import type { ProcessRunner } from './process/process-runner.js';
import { waitsForRunner } from './tools/schema/define.js';
import { createShellRunner } from './process/shell-runner.js';
import { canonicalTools } from './toolsets/canonical.js';
import { createWorkspaceCore, type Workspace, type WorkspaceOptions } from './workspace-core.js';

export interface CreateWorkspaceOptions extends WorkspaceOptions {
  /**
   * What runs run_command. By default Sandpit's own bash-compatible shell over `fs` (its code
   * loads on the first command; `node` there says it is not available, see `createPageRunner` in
   * `sandpit/web` for scripts in Web Workers). A host's runner (a remote sandbox) replaces it;
   * `false` or `null` turns run_command off: every call is NOT_SUPPORTED. It backs each tool in
   * `tools` whose `programs` has no runner (canonical's and fs_process's run_command, and a host's
   * `{ ...tool }` copy of one, which keeps its own words); a tool made over its own runner (Node's
   * real processes) keeps it.
   */
  processRunner?: ProcessRunner | false | null;
}

/**
 * Create a workspace: `call(tool, args)` runs a tool and returns its envelope, `listTools()`
 * describes the tools. Without `tools` it offers the canonical toolset, its run_command in the
 * built-in shell unless `processRunner` says otherwise.
 */
export function createWorkspace(options: CreateWorkspaceOptions): Workspace {
  const { processRunner, ...given } = options;
  // a fork gets the canonical tools over its own files, run_command in the built-in shell there
  const rest = { forkWith: (o: CreateWorkspaceOptions) => createWorkspace(o), ...given };
  const base = options.tools ?? canonicalTools;
  // Nothing to bind (Node's own run_command, or no such tool) or run_command turned off: the tools as they are.
  if (processRunner === false || processRunner === null || !base.some(waitsForRunner))
    return createWorkspaceCore({ ...rest, tools: base });
  const runner = processRunner ?? createShellRunner(options.fs, options.root ?? '/');
  // A command may change any file, so the workspace rescans after it to log and snapshot the changes.
  const findChanges = async () => (await ws.rescan())?.changed ?? [];
  const bind = (t: (typeof base)[number]) => (waitsForRunner(t) ? t.programs!.over(runner, findChanges, t) : t);
  const ws: Workspace = createWorkspaceCore({ ...rest, tools: base.map(bind) });
  return ws;
}
