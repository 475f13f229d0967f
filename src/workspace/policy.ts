/** Limits a workspace enforces; each has a default a user can lower or raise. */
export interface WorkspaceLimits {
  /** whole-file reads above this are TOO_LARGE unless a line window is given */
  maxReadBytes: number;
  /** lines an unbounded read_file returns */
  maxReadLines: number;
  /** characters one read_file window returns at most, however few lines it spans (one huge line pages with start_char) */
  maxReadChars: number;
  /** largest content a write may produce */
  maxWriteBytes: number;
  /** characters of one search result line */
  maxLineChars: number;
  /** milliseconds a search_files or glob call may run before it answers with what it found so far */
  searchBudgetMs: number;
}

/** What a confirmation is for: removing, changing or moving files, or running a tool that asks first. */
export type ConfirmAction = 'delete' | 'overwrite' | 'move' | 'run';

/** One confirmation as a host's approver sees it. */
export interface ApprovalRequest {
  /** what is to be done */
  action: ConfirmAction;
  /** the workspace paths concerned (for `run`, the tool's name) */
  paths: string[];
  /** the tool asking */
  tool: string;
  /** the call's arguments, for `run` (a manifest tool with `permission: "ask"`) */
  args?: unknown;
}

/**
 * A host's approver, the workspace's `confirm` policy: a terminal prompt, `runAgent`'s
 * `onApproval`, the playground's dialog, MCP elicitation. `true` allows; `false`, a throw or a
 * rejected promise refuses with CONFIRMATION_DENIED. The third argument names the tool and
 * carries a run's arguments.
 */
export type Approver = (paths: string[], action: ConfirmAction, request: ApprovalRequest) => boolean | Promise<boolean>;

/** Rules set when a workspace is created. */
export interface WorkspacePolicy {
  /** an existing file must have been read whole before it is overwritten, edited or patched */
  readBeforeWrite?: boolean;
  /** refuse to write a file that changed since the agent read it (default true) */
  staleCheck?: boolean;
  /**
   * The approver every confirmation goes to: deletes, cowork's changes outside its artifact
   * folder, manifest tools with `permission: "ask"`. Without one, the confirmations a surface
   * promises are refused (CONFIRMATION_DENIED); only the canonical delete_path proceeds, since
   * its change is snapshotted and can be undone (unless `alwaysConfirmDeletes`).
   */
  confirm?: Approver;
  /** make delete_path refuse when there is no approver, as the other confirmations do (default false) */
  alwaysConfirmDeletes?: boolean;
  /** caps on bytes, lines and matches; each one left out keeps its default */
  limits?: Partial<WorkspaceLimits>;
  /** let tools write, move and delete under `.git` folders (default false: a repository's hooks and config are code its owner runs) */
  allowGitWrites?: boolean;
  /** let text tools read a file with more than one hard link (default false: its other name may be outside the workspace) */
  allowHardLinks?: boolean;
}

export const DEFAULT_LIMITS: WorkspaceLimits = {
  maxReadBytes: 10 * 1024 * 1024,
  maxReadLines: 2000,
  // as many characters as the byte limit allows a whole UTF-8 file, so a whole read within it is never cut
  maxReadChars: 10 * 1024 * 1024,
  maxWriteBytes: 64 * 1024 * 1024,
  maxLineChars: 500,
  searchBudgetMs: 5000,
};

/** The workspace's policy with every default filled in, as the tools read it. */
export interface ResolvedPolicy {
  /** an existing file must be read in full before it is overwritten, edited or patched */
  readBeforeWrite: boolean;
  /** a file changed since it was read is refused (STALE_FILE) */
  staleCheck: boolean;
  /** replaceable while the workspace is open (runAgent's onApproval installs itself here for a run) */
  confirm?: Approver;
  /** delete_path refuses when there is no approver */
  alwaysConfirmDeletes: boolean;
  /** caps on bytes, lines and matches */
  limits: WorkspaceLimits;
  /** tools may change what is under `.git` folders */
  allowGitWrites: boolean;
  /** text tools may read a file with more than one hard link */
  allowHardLinks: boolean;
}

export function resolvePolicy(policy: WorkspacePolicy = {}): ResolvedPolicy {
  return {
    readBeforeWrite: policy.readBeforeWrite ?? false,
    staleCheck: policy.staleCheck ?? true,
    confirm: policy.confirm,
    alwaysConfirmDeletes: policy.alwaysConfirmDeletes ?? false,
    limits: { ...DEFAULT_LIMITS, ...policy.limits },
    allowGitWrites: policy.allowGitWrites === true,
    allowHardLinks: policy.allowHardLinks === true,
  };
}
