import * as git from 'isomorphic-git';
import { ToolError } from '../contract/index.js';
import { remoteForTransfer, SQUASH_REF, UPSTREAM_REF, rememberRemote, type GitContext } from './context.js';
import { toGitError } from './errors.js';
import { progressReporter, type GitProgressListener } from './progress.js';
import { authCallback, http, type RemoteOptions } from './transport.js';

export interface PushOptions extends RemoteOptions {
  /** the remote branch to create or fast-forward (default: the branch the workspace was cloned from) */
  branch?: string;
  /** push one commit holding the current files, on top of the last remote commit, instead of every snapshot */
  squash?: boolean;
  /** the squashed commit's message */
  message?: string;
  /** the squashed commit's author (default Sandpit) */
  author?: {
    /** the author's name */
    name: string;
    /** the author's email */
    email: string;
  };
  /** told of each phase as it goes */
  onProgress?: GitProgressListener;
}

/** What `git.push` sent: the remote branch and the commit it now points at. */
export interface PushResult {
  /** the remote, without credentials */
  url: string;
  /** the remote branch pushed to */
  branch: string;
  /** the commit the remote branch now points at */
  commit: string;
  /** the snapshots were pushed as one commit */
  squashed: boolean;
}

/**
 * Push the snapshot history (or one squashed commit) to a branch. Pending tool changes are
 * snapshotted first. The push is a fast-forward or nothing: a branch that moved on is refused
 * with STALE_FILE and the remote is left as it was.
 */
export async function pushFrom(ctx: GitContext, options: PushOptions = {}): Promise<PushResult> {
  const { store } = ctx;
  let url = typeof options?.url === 'string' ? options.url : '';
  const secrets: string[] = [];
  try {
    const remote = await remoteForTransfer(store, options, secrets, 'Changes before push');
    url = remote.url;
    const head = store.history.head!;
    const oid = options.squash ? await squashCommit(ctx, head.tree, options) : head.oid;
    const { fs, gitdir, cache } = store.access;
    await git.push({
      fs,
      http,
      gitdir,
      cache,
      url,
      ref: options.squash ? SQUASH_REF : 'refs/heads/main',
      remoteRef: `refs/heads/${remote.branch}`,
      corsProxy: options.corsProxy,
      onProgress: progressReporter(options.onProgress),
      onAuth: authCallback(options.auth, remote.auth, secrets),
    });
    await git.writeRef({ fs, gitdir, ref: UPSTREAM_REF, value: oid, force: true });
    await rememberRemote(store, url, remote.branch);
    return { url, branch: remote.branch, commit: oid, squashed: Boolean(options.squash) };
  } catch (error) {
    throw toGitError(error, 'push to', url, secrets);
  }
}

/** One commit with the head's tree whose parent is the last remote commit the workspace holds. */
async function squashCommit({ store }: GitContext, tree: string, options: PushOptions): Promise<string> {
  const { fs, gitdir, cache } = store.access;
  const parent = await git.resolveRef({ fs, gitdir, ref: UPSTREAM_REF }).catch(() => null);
  if (parent && (await git.readCommit({ fs, gitdir, cache, oid: parent })).commit.tree === tree) {
    await git.writeRef({ fs, gitdir, ref: SQUASH_REF, value: parent, force: true });
    return parent;
  }
  const who = options.author ?? { name: 'Sandpit', email: 'sandpit@localhost' };
  if (typeof who.name !== 'string' || typeof who.email !== 'string')
    throw new ToolError('INVALID_ARGUMENTS', 'author needs a name and an email');
  const stamp = { ...who, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const message = `${(options.message ?? 'Work from a Sandpit workspace').replace(/\n+$/, '')}\n`;
  const oid = await git.writeCommit({
    fs,
    gitdir,
    commit: { tree, parent: parent ? [parent] : [], author: stamp, committer: stamp, message },
  });
  await git.writeRef({ fs, gitdir, ref: SQUASH_REF, value: oid, force: true });
  return oid;
}
