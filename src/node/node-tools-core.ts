import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { ToolDefinition } from '../tools/schema/define.js';
import { describeExternalChanges } from '../tools/external-changes.js';
import { PathResolver } from '../workspace/paths.js';
import type { Workspace } from '../workspace-core.js';
import type { loadManifests, ManifestLoad, ManifestReport } from './manifests/load.js';
import { DEFAULT_CAPS, type ModelCaps } from './manifests/output.js';
import type { manifestTool } from './manifests/tool.js';
import { createNodeRunner, nodeRunCommand, type NodeProcessOptions } from './process/run-command.js';
import { gitTools } from './git-tools.js';
import type { GitAuth } from '../git/index.js';
import { taskTools } from '../tools/task-tools.js';
import { ProcessTaskRegistry } from './process/tasks.js';

/**
 * What loading manifest tools takes: the names no manifest may take, the loader and the tool
 * maker. nodeTools gives its own; the CLI loads them only when it is given a tools folder.
 */
export interface ManifestSupport {
  /** every built-in tool's name */
  reserved: readonly string[];
  /** reads the manifests of a tools folder */
  loadManifests: typeof loadManifests;
  /** makes one manifest's tool */
  manifestTool: typeof manifestTool;
}

export interface NodeToolsOptions extends NodeProcessOptions {
  /** a folder of tool folders (`<name>/<name>.json`, seed 003) to load as tools */
  toolsDir?: string;
  /** the agent home, `{home}` (default: the folder above toolsDir) */
  home?: string;
  /** the scratch folder, `{scratch}`, where each manifest call gets its output folder (default: a new temporary folder, removed on close) */
  scratch?: string;
  /** the session name manifest tools see (default 'sandpit') */
  session?: string;
  /** what the model can take in; media it cannot are dropped with a reason */
  caps?: Partial<ModelCaps>;
  /** more names manifests may not take */
  reservedNames?: string[];
  /** told about each skipped manifest (default: a line on stderr) */
  onWarning?: (report: ManifestReport) => void;
  /**
   * Offer git_clone, git_push and git_pull (canonical only): true, or the credentials they use
   * (the model never passes one). Off by default: they reach a git server past the workspace.
   */
  gitTools?:
    | boolean
    | {
        /** credentials for the remote (the model never passes one); without them only public remotes work */
        auth?: GitAuth;
      };
}

/** The Node-only tools of one workspace and the background tasks they own. */
export interface NodeToolset {
  /** run_command, the task tools and the manifest tools */
  tools: ToolDefinition[];
  /** the background tasks its tools started */
  tasks: ProcessTaskRegistry;
  /** what loading toolsDir found (null without toolsDir) */
  manifests: ManifestLoad | null;
  /** what manifest tools tell ZAGENT_CAPS and attach by, read at each call (runAgent narrows it to its provider's for a run) */
  caps: ModelCaps;
  /** Bind to the workspace using these tools: rescan after each command, end tasks on its close(). */
  attach(ws: Workspace): void;
  /** End every task and remove the scratch folder this toolset created. */
  close(): Promise<void>;
}

/** nodeTools, with the manifest support given (null: no tools folder may be given). */
export function makeNodeTools(options: NodeToolsOptions, support: ManifestSupport | null): NodeToolset {
  const tasks = new ProcessTaskRegistry(options.maxOutputBytes);
  let workspace: Workspace | null = null;
  const findChanges = async () => (workspace ? ((await workspace.rescan())?.changed ?? []) : []);
  // A background task ends after its call returned, so its changes are logged here, not by the call.
  const afterExit = async (tool: string) => {
    const ws = workspace;
    const changed = await findChanges();
    if (!ws || changed.length === 0) return;
    const paths = new PathResolver(ws.fs, ws.root);
    ws.changes.record(tool, await describeExternalChanges(ws.fs, (rel) => paths.toAbs(rel), changed));
  };
  const runner = createNodeRunner(tasks, options, afterExit);
  const tools: ToolDefinition[] = [
    nodeRunCommand(tasks, options, { findChanges, afterExit }, runner),
    ...taskTools(tasks),
  ];
  if (options.gitTools)
    tools.push(...gitTools(() => workspace, options.gitTools === true ? undefined : options.gitTools.auth));
  let manifests: ManifestLoad | null = null;
  const caps: ModelCaps = { ...DEFAULT_CAPS, ...options.caps };
  let ownScratch: string | null = null;
  if (options.toolsDir !== undefined) {
    if (!support) throw new Error('makeNodeTools: a tools folder needs the manifest support');
    const toolsDir = resolve(options.toolsDir);
    manifests = support.loadManifests(toolsDir, [...support.reserved, ...(options.reservedNames ?? [])]);
    const warn =
      options.onWarning ??
      ((r: ManifestReport) => process.stderr.write(`sandpit: tool '${r.name}' skipped: ${r.problems.join('; ')}\n`));
    for (const report of manifests.reports) if (report.status === 'skipped') warn(report);
    if (manifests.folderProblem)
      warn({ name: '(tools folder)', status: 'skipped', problems: [manifests.folderProblem] });
    const scratch = options.scratch ?? (ownScratch = mkdtempSync(join(tmpdir(), 'sandpit-scratch-')));
    const deps = {
      tasks,
      process: options,
      home: options.home ?? dirname(toolsDir),
      scratch,
      session: options.session ?? 'sandpit',
      caps,
      findChanges,
      afterExit,
    };
    for (const loaded of manifests.tools) tools.push(support.manifestTool(loaded, deps));
  }
  const close = async () => {
    await tasks.closeAll();
    await runner.closeSessions();
    if (ownScratch) rmSync(ownScratch, { recursive: true, force: true });
    ownScratch = null;
  };
  return {
    tools,
    tasks,
    manifests,
    caps,
    attach(ws) {
      workspace = ws;
      ws.onClose(close);
    },
    close,
  };
}

/** `base` with `extra` added; a tool in `extra` replaces the one of the same name in `base`. */
export function mergeTools(base: readonly ToolDefinition[], extra: readonly ToolDefinition[]): ToolDefinition[] {
  const names = new Set(extra.map((t) => t.name));
  return [...base.filter((t) => !names.has(t.name)), ...extra];
}
