/** Limits a workspace enforces; each has a default a user can lower or raise. */
export interface WorkspaceLimits {
  /** whole-file reads above this are TOO_LARGE unless a line window is given */
  maxReadBytes: number;
  /** lines an unbounded read_file returns */
  maxReadLines: number;
  /** largest content a write may produce */
  maxWriteBytes: number;
  /** characters of one search result line */
  maxLineChars: number;
  /** milliseconds a search_files or glob call may run before it answers with what it found so far */
  searchBudgetMs: number;
}

export type ConfirmAction = 'delete' | 'overwrite' | 'move' | 'run';

/** Rules set when a workspace is created. */
export interface WorkspacePolicy {
  /** an existing file must have been read whole before it is overwritten, edited or patched */
  readBeforeWrite?: boolean;
  /** refuse to write a file that changed since the agent read it (default true) */
  staleCheck?: boolean;
  /** asked before deletes; false (or a rejected promise) refuses with CONFIRMATION_DENIED */
  confirm?: (paths: string[], action: ConfirmAction) => boolean | Promise<boolean>;
  limits?: Partial<WorkspaceLimits>;
}

export const DEFAULT_LIMITS: WorkspaceLimits = {
  maxReadBytes: 10 * 1024 * 1024,
  maxReadLines: 2000,
  maxWriteBytes: 64 * 1024 * 1024,
  maxLineChars: 500,
  searchBudgetMs: 5000,
};

export interface ResolvedPolicy {
  readBeforeWrite: boolean;
  staleCheck: boolean;
  confirm?: WorkspacePolicy['confirm'];
  limits: WorkspaceLimits;
}

export function resolvePolicy(policy: WorkspacePolicy = {}): ResolvedPolicy {
  return {
    readBeforeWrite: policy.readBeforeWrite ?? false,
    staleCheck: policy.staleCheck ?? true,
    confirm: policy.confirm,
    limits: { ...DEFAULT_LIMITS, ...policy.limits },
  };
}
