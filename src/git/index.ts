import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import type { Envelope } from '../contract/index.js';
import type { CloneOptions, CloneResult } from './clone.js';
import type { GitContext } from './context.js';
import type { PullOptions, PullResult } from './pull.js';
import type { PushOptions, PushResult } from './push.js';

export type { CloneOptions, CloneResult } from './clone.js';
export type { PullOptions, PullResult } from './pull.js';
export type { PushOptions, PushResult } from './push.js';
export type { GitProgress, GitProgressListener } from './progress.js';
export type { GitAuth, GitCredentials } from './redact.js';
export type { RemoteOptions } from './transport.js';

/**
 * A workspace's link to git hosting, over isomorphic-git's HTTP transport (Node and browser
 * alike). Like `call`, every verb resolves to an envelope and never throws; credentials are used
 * for the request only and never stored, logged or put in a result or message.
 */
export interface WorkspaceGit {
  /** Clone a repository into this (empty) workspace: its files become the workspace and its newest snapshot. */
  clone(options: CloneOptions): Promise<Envelope<CloneResult>>;
  /** Push the snapshot history, or one squashed commit, to a branch: a fast-forward or nothing. */
  push(options?: PushOptions): Promise<Envelope<PushResult>>;
  /** Bring a branch's new commits in when no file collides; otherwise report the paths and change nothing. */
  pull(options?: PullOptions): Promise<Envelope<PullResult>>;
}

/** The git verbs over a workspace's backend and shadow repository (null when snapshots are off). */
export function createWorkspaceGit(ctx: Omit<GitContext, 'store'> & { store: GitContext['store'] | null }, settled: () => Promise<void> = async () => {}): WorkspaceGit {
  const run = async <R>(tool: string, work: (c: GitContext) => Promise<R>): Promise<Envelope<R>> => {
    try {
      // commits still running after their calls answered must land before git reads the history
      await settled();
      if (!ctx.store) {
        throw new ToolError('NOT_SUPPORTED', 'git clone, push and pull need snapshots, which are turned off for this workspace', {
          hint: 'Create the workspace without `snapshots: false`.',
        });
      }
      return { ok: true, tool, result: await work({ ...ctx, store: ctx.store }) };
    } catch (error) {
      return { ok: false, tool, error: toToolError(error).toJSON() };
    }
  };
  // Loaded on first use, so a worker that never talks to a git server does not carry the transport.
  return {
    clone: (options) => run('git_clone', async (c) => (await import('./clone.js')).cloneInto(c, options)),
    push: (options = {}) => run('git_push', async (c) => (await import('./push.js')).pushFrom(c, options)),
    pull: (options = {}) => run('git_pull', async (c) => (await import('./pull.js')).pullInto(c, options)),
  };
}
