import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import type { Envelope } from '../contract/index.js';
import type { CloneOptions, CloneResult } from './clone.js';
import type { GitContext } from './context.js';
import type { PullOptions, PullResult } from './pull.js';
import type { PushOptions, PushResult } from './push.js';
import type { ProbeResult } from './probe.js';
import type { RemoteOptions } from './transport.js';

import type { SetAuthorOptions, SetAuthorResult } from './author.js';

export type { SetAuthorOptions, SetAuthorResult } from './author.js';
export type { CloneOptions, CloneResult } from './clone.js';
export type { PullOptions, PullResult } from './pull.js';
export type { PushOptions, PushResult } from './push.js';
export type { ProbeResult } from './probe.js';
export type { GitProgress, GitProgressListener } from './progress.js';
export type { GitAuth, GitCredentials } from './redact.js';
export type { RemoteOptions } from './transport.js';
export type { GitAuthor } from './work-repo.js';

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
  /**
   * Ask a remote which branches it has (git's ref discovery) and change nothing: whether the URL
   * names a repository that answers, an empty one included. Needs neither files nor snapshots.
   */
  probe(options: RemoteOptions): Promise<Envelope<ProbeResult>>;
  /**
   * Set who the workspace's own commits (the shell's `git commit`) are by: `user.name` and
   * `user.email` in its `.git/config`, as the Git tab's Author and Email fields say after a clone.
   * `NOT_FOUND` when the workspace has no `.git`.
   */
  setAuthor(options: SetAuthorOptions): Promise<Envelope<SetAuthorResult>>;
}

/** The workspace's lock shared with other processes (see `ProcessLock` in the assembly). */
export interface GitProcessLock {
  acquire(): Promise<() => Promise<void>>;
}

/**
 * The git verbs over a workspace's backend and shadow repository (null when snapshots are off).
 * With a `lock`, push and pull hold it for their whole run and first take the commits other
 * processes made, as mutating tools do: a pull moves the snapshot branch and writes files, a push
 * records the upstream, and either racing another process's change lost that change's commit.
 * A clone does not: it needs an empty folder, and the lock's own file would make one not empty.
 */
export function createWorkspaceGit(
  ctx: Omit<GitContext, 'store'> & { store: GitContext['store'] | null },
  settled: () => Promise<void> = async () => {},
  lock?: GitProcessLock,
): WorkspaceGit {
  // The verb's code is loaded on first use, so a worker that never talks to a git server does not
  // carry the transport; the load starts with the call, while the run waits for commits and the
  // change log (whose own code may be loading): in a browser each is a fetch, one after the other otherwise.
  const run = async <M, R>(
    tool: string,
    load: () => Promise<M>,
    work: (code: M, c: GitContext) => Promise<R>,
    locked = false,
  ): Promise<Envelope<R>> => {
    const code = load();
    code.catch(() => {});
    let release: (() => Promise<void>) | null = null;
    try {
      // commits still running after their calls answered must land before git reads the history
      await settled();
      if (!ctx.store) {
        throw new ToolError(
          'NOT_SUPPORTED',
          'git clone, push and pull need snapshots, which are turned off for this workspace',
          {
            hint: 'Create the workspace without `snapshots: false`.',
          },
        );
      }
      if (locked && lock) {
        release = await lock.acquire();
        // held: an open here may commit what changed while the workspace was closed, which a push must carry
        await ctx.store.openHeld();
      }
      return { ok: true, tool, result: await work(await code, { ...ctx, store: ctx.store }) };
    } catch (error) {
      return { ok: false, tool, error: toToolError(error).toJSON() };
    } finally {
      await release?.().catch(() => {});
    }
  };
  return {
    clone: (options) =>
      run(
        'git_clone',
        () => import('./clone.js'),
        (m, c) => m.cloneInto(c, options),
      ),
    push: (options = {}) =>
      run(
        'git_push',
        () => import('./push.js'),
        (m, c) => m.pushFrom(c, options),
        true,
      ),
    pull: (options = {}) =>
      run(
        'git_pull',
        () => import('./pull.js'),
        (m, c) => m.pullInto(c, options),
        true,
      ),
    setAuthor: async (options) => {
      try {
        return { ok: true, tool: 'git_config', result: await (await import('./author.js')).setAuthor(ctx, options) };
      } catch (error) {
        return { ok: false, tool: 'git_config', error: toToolError(error).toJSON() };
      }
    },
    probe: async (options) => {
      try {
        return { ok: true, tool: 'git_probe', result: await (await import('./probe.js')).probeRemote(options) };
      } catch (error) {
        return { ok: false, tool: 'git_probe', error: toToolError(error).toJSON() };
      }
    },
  };
}
