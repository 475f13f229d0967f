import * as git from 'isomorphic-git';
import { ToolError } from '../contract/index.js';
import { remoteForTransfer, SQUASH_REF, UPSTREAM_REF, rememberRemote, type GitContext } from './context.js';
import { toGitError } from './errors.js';
import { progressReporter, type GitProgressListener } from './progress.js';
import { authCallback, http, type RemoteOptions } from './transport.js';
import {
  copyIntoShadow,
  holds,
  missingObjects,
  moveWorkRepo,
  openWorkRepo,
  reaches,
  type WorkRepo,
} from './work-sync.js';

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
    const { fs, gitdir, cache } = store.access;
    const upstream = await git.resolveRef({ fs, gitdir, ref: UPSTREAM_REF }).catch(() => null);
    const work = await planWorkRepo(ctx, remote.url, upstream, Boolean(options.squash));
    const oid = options.squash ? await squashCommit(ctx, head.tree, options, work?.base ?? upstream) : head.oid;
    // what `.git` lacks is read before the push, so a failure there leaves the remote as it was
    const objects = work ? await missingObjects(store.access, work.repo.access, [oid]) : [];
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
    if (work) {
      const { repo } = work;
      const forward =
        repo.branch === remote.branch && repo.head !== null && (work.base === repo.head || !options.squash)
          ? await reaches(ctx, oid, repo.head)
          : false;
      await moveWorkRepo(ctx, repo, {
        objects,
        remote: { branch: remote.branch, commit: oid },
        ...(forward ? { head: { from: repo.head, to: oid } } : {}),
      });
    }
    return { url, branch: remote.branch, commit: oid, squashed: Boolean(options.squash) };
  } catch (error) {
    throw toGitError(error, 'push to', url, secrets);
  }
}

/**
 * The workspace's `.git` a push keeps in step, and the commit a squash goes on: `.git`'s HEAD when
 * it holds the last remote commit (the shell's own commits on top of it go too, copied into the
 * shadow repository to be sent). Those commits are not in the snapshot history, so pushing every
 * snapshot instead would leave them out: refused, with nothing sent.
 */
async function planWorkRepo(
  ctx: GitContext,
  url: string,
  upstream: string | null,
  squash: boolean,
): Promise<{ repo: WorkRepo; base: string | null } | null> {
  const repo = await openWorkRepo(ctx, url);
  if (!repo?.head) return repo ? { repo, base: upstream } : null;
  // without a remote commit both hold, `.git` (a real clone opened by the CLI, say) is not the shadow's
  const inStep = upstream !== null && (await holds(ctx, repo, upstream));
  if (!inStep) return { repo, base: upstream };
  if (repo.own.length > 0) {
    if (!squash)
      throw new ToolError(
        'INVALID_ARGUMENTS',
        `the workspace's .git has ${repo.own.length} commit${repo.own.length === 1 ? '' : 's'} of its own (made by git commit in the shell) that the snapshot history does not hold; nothing was pushed`,
        { hint: 'Push with squash: true: those commits go, with one commit of the files changed since on top.' },
      );
    await copyIntoShadow(ctx, await missingObjects(repo.access, ctx.store.access, [repo.head]));
  }
  return { repo, base: repo.head };
}

/** One commit with the head's tree on top of `parent` (the last remote commit, or `.git`'s HEAD holding it). */
async function squashCommit(
  { store }: GitContext,
  tree: string,
  options: PushOptions,
  parent: string | null,
): Promise<string> {
  const { fs, gitdir, cache } = store.access;
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
