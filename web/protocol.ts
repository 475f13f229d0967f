import type { Envelope } from '../src/workspace/workspace.js';
import type { ChangeDetail, ChangeSummary } from '../src/workspace/change-log.js';
import type { ConfirmAction, WorkspacePolicy } from '../src/workspace/policy.js';
import type { SnapshotOptions } from '../src/snapshots/store.js';
import type { ToolInfo } from '../src/tools/define.js';

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
  close(): Promise<void>;
}
