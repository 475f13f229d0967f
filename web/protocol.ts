import type { Envelope } from '../src/workspace-core.js';
import type { ChangeDetail, ChangeSummary } from '../src/workspace/change-log.js';
import type { ConfirmAction, WorkspacePolicy } from '../src/workspace/policy.js';
import type { SnapshotOptions } from '../src/snapshots/store.js';
import type { ToolInfo } from '../src/tools/define.js';
import type { CloneOptions, GitCredentials, GitProgress, PullOptions, PushOptions } from '../src/git/index.js';
import type { ImportResult } from '../src/tools/import-files.js';
import type { WireFile } from './base64.js';
import type { PreviewEntry } from './preview/read-file.js';

/** Where a browser workspace keeps its files. `memory` is gone when the worker ends, by design. */
export type BackendKind = 'opfs' | 'indexeddb' | 'memory';

/** The policy as it crosses the worker boundary: plain JSON, with `confirm` replaced by a flag. */
export type WirePolicy = Omit<WorkspacePolicy, 'confirm'> & { confirm?: boolean };

export interface WireOpenOptions {
  backend: BackendKind;
  /** names the storage: two workspaces with different names never share files */
  name: string;
  policy?: WirePolicy;
  snapshots?: SnapshotOptions | false;
}

/** A change as a UI needs it to refresh: which call made it and which paths it touched. */
export interface ChangeEvent {
  change_id: string;
  tool: string;
  paths: string[];
}

export interface OpenInfo {
  backend: BackendKind;
  name: string;
  /** true while another tab holds this workspace: calls then fail with IO_ERROR */
  locked: boolean;
}

/**
 * What the worker exposes through comlink. Every argument and result is plain JSON; the two
 * callbacks are comlink proxies the page registers.
 */
export interface WorkerApi {
  open(options: WireOpenOptions, confirm?: (paths: string[], action: ConfirmAction) => Promise<boolean>): Promise<OpenInfo>;
  call(tool: string, args?: unknown): Promise<Envelope>;
  listTools(): Promise<ToolInfo[]>;
  changes(): Promise<ChangeSummary[]>;
  change(id: string): Promise<ChangeDetail | null>;
  subscribe(listener: (event: ChangeEvent) => void): Promise<void>;
  /** Write files from their bytes as one change and one snapshot (an import from disk); `onProgress` is a comlink proxy. */
  importFiles(files: WireFile[], onProgress?: (done: number, total: number) => void): Promise<Envelope<ImportResult>>;
  /** Every file's bytes (`.sandpit` left out), for an export. */
  exportFiles(): Promise<{ files: WireFile[]; skipped: string[] }>;
  /**
   * A git verb on the hosted workspace. `options` is plain JSON (credentials in it are used for
   * this request only); `onProgress` and `auth` are comlink proxies that stay in the page.
   */
  git(verb: GitVerb, options: WireGitOptions, onProgress?: (event: GitProgress) => void, auth?: (url: string) => Promise<GitCredentials | undefined>): Promise<Envelope>;
  /** One file's bytes for the live preview (read-only, confined, `.sandpit` never served). */
  previewEntry(path: string): Promise<PreviewEntry>;
  close(): Promise<void>;
}

/** The git verbs a worker answers. */
export type GitVerb = 'clone' | 'push' | 'pull';

/** Git options as they cross the worker boundary: callbacks are sent separately, as proxies. */
export type WireGitOptions = Omit<Partial<CloneOptions> & PushOptions & PullOptions, 'onProgress' | 'auth'> & { auth?: GitCredentials };
