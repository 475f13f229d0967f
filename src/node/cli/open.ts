import { promises as fsp } from 'node:fs';
import { join, resolve } from 'node:path';
import { createWorkspace } from '../../create-workspace.js';
import type { WorkspaceFs } from '../../fs/types.js';
import type { SnapshotOptions } from '../../snapshots/store.js';
import { loadToolset } from '../../toolsets/load.js';
import {
  isNativeToolsetName,
  isToolsetName,
  NATIVE_TOOLSET_NAMES,
  TOOLSET_NAMES,
  type NativeToolsetName,
  type Toolset,
  type ToolsetName,
} from '../../toolsets/toolset-core.js';
import type { Workspace } from '../../workspace-core.js';
import type { Approver } from '../../workspace/policy.js';
import { UsageError, type WorkspaceSource } from './args.js';
import { refuseBroadRoot } from './broad-root.js';
import type { ModelCaps } from '../manifests/output.js';
import type { ProcessTaskRegistry } from '../process/tasks.js';
import { openToolsetWorkspaceLazily, type ToolsetWorkspaceOptions } from '../open-core.js';

/** Folders `--from` leaves behind: dependencies and Sandpit's own state are not workspace content. */
export const SKIPPED_ON_COPY = new Set(['node_modules', '.sandpit']);

/** What opening found worth telling the person at the terminal (never shown to a model). */
export interface OpenReport {
  skipped: number;
}

/** The toolset named by --toolset (default canonical), a vendor's native one included; an unknown name is a UsageError. */
export function cliToolsetName(name = 'canonical'): ToolsetName | NativeToolsetName {
  if (!isToolsetName(name) && !isNativeToolsetName(name))
    throw new UsageError(
      `unknown toolset '${name.slice(0, 40)}' (use ${[...TOOLSET_NAMES, ...NATIVE_TOOLSET_NAMES].join(', ')})`,
    );
  return name;
}

/** What --toolset, --artifacts and --snapshots asked for. */
export interface CliToolsetOptions {
  toolset?: string;
  artifactDir?: string;
  snapshots?: SnapshotOptions | false;
  /** the approver (--approve all, or the terminal) */
  confirm?: Approver;
  /** the model's media capabilities, passed to manifest tools */
  caps?: Partial<ModelCaps>;
  /** offer the git tools (a folder workspace only) */
  gitTools?: ToolsetWorkspaceOptions['gitTools'];
  /** the command makes one call and exits (`sandpit call`): no change feed for later rescans */
  oneCall?: boolean;
}

/** Open the workspace a command runs on, offering the named toolset; a missing or unusable folder is a UsageError. */
export async function openCliWorkspace(
  source: WorkspaceSource,
  options: CliToolsetOptions = {},
): Promise<{ ws: Workspace; report: OpenReport; set: Toolset; tasks: ProcessTaskRegistry | null }> {
  const name = cliToolsetName(options.toolset);
  const artifacts = options.artifactDir === undefined ? {} : { artifactDir: options.artifactDir };
  const snapshots = options.snapshots === undefined ? {} : { snapshots: options.snapshots };
  const policy = options.confirm ? { policy: { confirm: options.confirm } } : {};
  if (source.backend === 'node') {
    const root = resolve(source.root);
    await requireFolder(root, '--root');
    refuseBroadRoot(root, '--root', source.allowBroadRoot === true);
    if (source.toolsDir !== undefined) await requireFolder(resolve(source.toolsDir), '--tools');
    const { ws, set, tasks } = await openToolsetWorkspaceLazily(
      root,
      name,
      {
        ...artifacts,
        ...snapshots,
        ...policy,
        ...(options.caps ? { caps: options.caps } : {}),
        ...(options.gitTools ? { gitTools: options.gitTools } : {}),
        ...(source.toolsDir !== undefined ? { toolsDir: source.toolsDir } : {}),
        ...(source.sandbox ? { sandbox: source.sandbox } : {}),
      },
      options.oneCall !== true,
    );
    return { ws, set, tasks, report: { skipped: 0 } };
  }
  // memfs loads only for a memory workspace, so every other command starts without it
  const { createMemoryFs } = await import('../../fs/memory.js');
  const fs = createMemoryFs();
  const report: OpenReport = { skipped: 0 };
  if (source.from !== undefined) {
    const from = resolve(source.from);
    await requireFolder(from, '--from');
    await copyInto(fs, from, '', report);
  }
  const set = await loadToolset(name, artifacts);
  // A memory workspace in Node runs no programs, and the CLI does not swap the built-in shell in for them.
  return {
    ws: createWorkspace({ fs, root: '/', tools: set.tools, ...snapshots, ...policy, processRunner: false }),
    report,
    set,
    tasks: null,
  };
}

// The message names the option, not the folder: a model may be the one reading stderr.
async function requireFolder(folder: string, option: string): Promise<void> {
  let isDir = false;
  try {
    isDir = (await fsp.stat(folder)).isDirectory();
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ENOENT') throw new UsageError(`the folder given to ${option} does not exist`);
    throw new UsageError(`the folder given to ${option} cannot be opened (${code ?? 'unknown error'})`);
  }
  if (!isDir) throw new UsageError(`${option} must name a folder, not a file`);
  try {
    await fsp.readdir(folder);
  } catch (error) {
    throw new UsageError(
      `the folder given to ${option} cannot be read (${(error as { code?: string }).code ?? 'unknown error'})`,
    );
  }
}

/**
 * Copy a real folder into the memory backend below `rel`. Only relative symlinks are kept:
 * an absolute target is a host path, which must never reach the workspace.
 */
async function copyInto(fs: WorkspaceFs, hostDir: string, rel: string, report: OpenReport): Promise<void> {
  let entries;
  try {
    entries = await fsp.readdir(hostDir, { withFileTypes: true });
  } catch {
    report.skipped++;
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const host = join(hostDir, entry.name);
    const target = `${rel}/${entry.name}`;
    try {
      if (entry.isDirectory()) {
        if (SKIPPED_ON_COPY.has(entry.name)) continue;
        await fs.mkdir(target, { recursive: true });
        await copyInto(fs, host, target, report);
      } else if (entry.isFile()) {
        await fs.writeFile(target, new Uint8Array(await fsp.readFile(host)));
      } else if (entry.isSymbolicLink()) {
        const link = await fsp.readlink(host);
        if (link.startsWith('/') || /^[A-Za-z]:|^\\\\/.test(link)) report.skipped++;
        else await fs.symlink(link, target);
      } else {
        report.skipped++;
      }
    } catch {
      report.skipped++;
    }
  }
}
