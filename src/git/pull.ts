import * as git from 'isomorphic-git';
import type { Problem } from '../contract/index.js';
import { ToolError } from '../contract/index.js';
import { formatMessage } from '../snapshots/history.js';
import { fileMatches, writeChanges } from './checkout.js';
import { remoteForTransfer, UPSTREAM_REF, rememberRemote, type GitContext } from './context.js';
import { toGitError } from './errors.js';
import { progressReporter, type GitProgressListener } from './progress.js';
import { isSkippedPath } from './safe-path.js';
import { diffTrees, type FileChange } from './tree-diff.js';
import { authCallback, type RemoteOptions } from './transport.js';
import type { PackObjectType } from './index-pack.js';
import { capturePack, storePack } from './pack-capture.js';
import { planWorkMerge, type WorkMerge } from './work-merge.js';
import {
  holds,
  missingObjects,
  moveWorkRepo,
  openWorkRepo,
  reaches,
  stagedCollisions,
  type WorkRepo,
} from './work-sync.js';

// A pull has no file cap (yet): the index still streams, and only delta bases and the files it
// writes are held whole, as they were before.
const PULL_MAX_OBJECT_BYTES = Number.MAX_SAFE_INTEGER;

export interface PullOptions extends RemoteOptions {
  /** the remote branch (default: the one the workspace was cloned from or last pushed to) */
  branch?: string;
  /** told of each phase as it goes */
  onProgress?: GitProgressListener;
}

/** What `git.pull` did to the workspace's branch. */
export interface PullResult {
  /** the remote, without credentials */
  url: string;
  /** the remote branch pulled from */
  branch: string;
  /** `merged`: both sides had changes, on different files, and a merge commit joins them */
  status: 'up_to_date' | 'fast_forward' | 'merged';
  /** the workspace's head commit afterwards */
  commit: string;
  /** files the pull wrote or deleted */
  files: string[];
}

/**
 * Bring the remote branch's changes into the workspace. A fast-forward when the workspace has no
 * snapshots of its own since; when both sides changed, a merge commit, provided they changed
 * different files. Otherwise (or when a file changed behind the tools' back would be overwritten)
 * nothing changes and PATCH_CONFLICT lists the colliding paths.
 */
export async function pullInto(ctx: GitContext, options: PullOptions = {}): Promise<PullResult> {
  const { store } = ctx;
  let url = typeof options?.url === 'string' ? options.url : '';
  const secrets: string[] = [];
  try {
    const remote = await remoteForTransfer(store, options, secrets, 'Changes before pull');
    url = remote.url;
    const { fs, gitdir, cache } = store.access;
    // a thin pack's deltas are based on objects the shadow repository already holds
    const readExternal = (oid: string) =>
      git.readObject({ fs, gitdir, cache, oid, format: 'content' }).then(
        (o) => ({ type: o.type as PackObjectType, object: o.object as Uint8Array }),
        () => null,
      );
    const capture = capturePack({ maxObjectBytes: PULL_MAX_OBJECT_BYTES, readExternal });
    const fetched = await git.fetch({
      fs,
      http: capture.http,
      gitdir,
      cache,
      url,
      ref: UPSTREAM_REF,
      remoteRef: remote.branch,
      singleBranch: true,
      tags: false,
      corsProxy: options.corsProxy,
      onProgress: progressReporter(options.onProgress),
      onAuth: authCallback(options.auth, remote.auth, secrets),
    });
    if (!fetched.fetchHead) throw new ToolError('NOT_FOUND', `the remote branch '${remote.branch}' does not exist`);
    const { read } = await storePack(ctx.fs, gitdir, capture);
    const theirs = (await git.readCommit({ fs, gitdir, cache, oid: fetched.fetchHead })).oid;
    const done = (status: PullResult['status'], files: string[]) => ({
      url,
      branch: remote.branch,
      status,
      commit: store.history.head!.oid,
      files,
    });
    const ours = store.history.head!;
    const plan = () => planWorkRepo(ctx, url, remote.branch, theirs);
    if (theirs === ours.oid || (await descends(ctx, ours.oid, theirs))) {
      // the files hold the pulled commit already; `.git` may still have it to merge
      await store.exclusive(async () => {
        const work = await plan();
        if (work?.staged.length) throw overwrites(remote.branch, work.staged);
        if (work) await moveAfterPull(ctx, work, remote.branch, theirs);
      });
      return done('up_to_date', []);
    }
    const base = (await descends(ctx, theirs, ours.oid))
      ? ours.oid
      : ((await git.findMergeBase({ fs, gitdir, cache, oids: [ours.oid, theirs] }).catch(() => []))[0] as
          | string
          | undefined);
    if (!base)
      throw new ToolError(
        'PATCH_CONFLICT',
        `the workspace and '${remote.branch}' share no history, so the branch cannot be pulled`,
        { hint: 'Clone the branch into a new workspace instead.' },
      );
    const [baseTree, theirTree] = await Promise.all([treeOf(ctx, base), treeOf(ctx, theirs)]);
    // what a clone would not write, a pull does not write either (see isSkippedPath)
    const writable = (changes: FileChange[]) => changes.filter((c) => !isSkippedPath(c.path));
    const incoming = writable(await diffTrees(store.access, baseTree, theirTree));
    const local = base === ours.oid ? [] : writable(await diffTrees(store.access, baseTree, ours.tree));
    const result = await store.exclusive(async () => {
      const work = await plan();
      // `.git`'s reasons first: they say what git itself would do there
      const conflicts = [
        ...(work?.staged ?? []),
        ...collisions(incoming, local),
        ...(await unsnapshotted(ctx, incoming, ours.tree)),
      ];
      if (conflicts.length > 0) throw overwrites(remote.branch, conflicts);
      const toWrite = local.length === 0 ? writable(await diffTrees(store.access, ours.tree, theirTree)) : incoming;
      await writeChanges(ctx.writer, store.access, toWrite, { tool: 'git_pull', readBlob: read });
      if (work) await moveAfterPull(ctx, work, remote.branch, theirs);
      if (local.length === 0) {
        await store.adopt(theirs);
        return done(
          'fast_forward',
          toWrite.map((c) => c.path),
        );
      }
      return { files: toWrite.map((c) => c.path) };
    });
    if ('status' in result) return finish(ctx, url, remote.branch, theirs, result);
    // Both sides changed: snapshot the combined files, then record them as a merge of both heads.
    const combined = await store.commitPending({ message: `Pull ${remote.branch}` }, result.files, true);
    const tree = combined.snapshot!.tree;
    const who = {
      name: 'Sandpit',
      email: 'sandpit@localhost',
      timestamp: Math.floor(Date.now() / 1000),
      timezoneOffset: 0,
    };
    const message = formatMessage({
      message: `Merge '${remote.branch}' of ${url}`,
      files_changed: result.files.length,
      tool: 'git.pull',
    });
    const merge = await git.writeCommit({
      fs,
      gitdir,
      commit: { tree, parent: [ours.oid, theirs], author: who, committer: who, message },
    });
    await store.exclusive(() => store.adopt(merge));
    return finish(ctx, url, remote.branch, theirs, done('merged', result.files));
  } catch (error) {
    throw toGitError(error, 'pull from', url, secrets);
  }
}

async function finish(
  ctx: GitContext,
  url: string,
  branch: string,
  theirs: string,
  result: PullResult,
): Promise<PullResult> {
  await git.writeRef({ ...ctx.store.access, ref: UPSTREAM_REF, value: theirs, force: true });
  await rememberRemote(ctx.store, url, branch);
  return { ...result, commit: ctx.store.history.head!.oid };
}

/** The workspace's `.git` a pull moves, and what it would overwrite there (the pull is refused then). */
interface WorkPlan {
  repo: WorkRepo;
  /** `.git`'s branch fast-forwards to the pulled commit: it holds no commit the remote lacks */
  forward: boolean;
  /** `.git`'s branch has commits of its own: the merge commit that joins them with the pulled one */
  merge: WorkMerge | null;
  staged: Problem[];
}

/**
 * What the pull does to the workspace's `.git`, as `git pull` (merge, its default) does to a clone.
 * When its branch holds nothing the pulled commit lacks, it fast-forwards (the index's rows of the
 * pulled paths change with it, refused as `git pull` refuses when they are staged). When it holds
 * commits of its own (the shell's `git commit`) and lacks the pulled one, a merge commit joins them
 * (./work-merge.ts). When it holds the pulled commit already, or is on another branch, only
 * `origin/<branch>` moves.
 */
async function planWorkRepo(ctx: GitContext, url: string, branch: string, theirs: string): Promise<WorkPlan | null> {
  const repo = await openWorkRepo(ctx, url);
  if (!repo) return null;
  const still = { repo, forward: false, merge: null, staged: [] };
  if (repo.head === null || repo.branch === null || repo.head === theirs || (await holds(ctx, repo, theirs)))
    return still;
  if (repo.own.length === 0 && (await reaches(ctx, theirs, repo.head))) {
    const staged = await stagedCollisions(
      repo,
      ctx.store.access,
      await treeOf(ctx, repo.head),
      await treeOf(ctx, theirs),
    );
    return { repo, forward: true, merge: null, staged };
  }
  if (repo.branch !== branch) return still;
  const merge = await planWorkMerge(ctx, repo, theirs, branch, url);
  return merge ? { repo, forward: false, merge, staged: merge.problems } : still;
}

async function moveAfterPull(ctx: GitContext, work: WorkPlan, branch: string, theirs: string): Promise<void> {
  const { repo, merge } = work;
  const objects = await missingObjects(ctx.store.access, repo.access, [theirs]);
  const head = merge
    ? { from: repo.head, to: merge.commit, changes: merge.changes, pulled: true }
    : work.forward
      ? { from: repo.head, to: theirs, pulled: true }
      : undefined;
  await moveWorkRepo(ctx, repo, {
    objects: merge ? [...objects, ...merge.objects] : objects,
    remote: { branch, commit: theirs },
    ...(head ? { head } : {}),
  });
}

/** The refusal of a pull that would overwrite what the workspace holds: nothing was changed. */
function overwrites(branch: string, found: Problem[]): ToolError {
  // one entry per path: the first reason found for it
  const problems = [...new Map(found.reverse().map((p) => [p.path, p])).values()].reverse();
  return new ToolError(
    'PATCH_CONFLICT',
    `pulling '${branch}' would overwrite ${problems.length} file${problems.length === 1 ? '' : 's'} changed in the workspace; nothing was changed`,
    {
      hint: 'Push the workspace to a new branch and merge there, or restore those files and pull again.',
      problems,
    },
  );
}

async function descends({ store }: GitContext, oid: string, ancestor: string): Promise<boolean> {
  return git.isDescendent({ ...store.access, oid, ancestor, depth: -1 }).catch(() => false);
}

async function treeOf({ store }: GitContext, oid: string): Promise<string> {
  return (await git.readCommit({ ...store.access, oid })).commit.tree;
}

/** Paths both sides changed to different contents (a file on one side and a folder on the other counts). */
function collisions(incoming: FileChange[], local: FileChange[]): Problem[] {
  const mine = new Map(local.map((c) => [c.path, c]));
  const out: Problem[] = [];
  for (const c of incoming) {
    const m = mine.get(c.path);
    if (m && (m.after?.oid !== c.after?.oid || m.after?.mode !== c.after?.mode))
      out.push({ path: c.path, message: 'changed in the workspace and on the remote' });
    else if (!m && local.some((l) => l.path.startsWith(`${c.path}/`) || c.path.startsWith(`${l.path}/`)))
      out.push({ path: c.path, message: 'a file on one side is a folder on the other' });
  }
  return out;
}

/** Incoming paths whose workspace file differs from the last snapshot: changed behind the tools' back. */
async function unsnapshotted(ctx: GitContext, incoming: FileChange[], tree: string): Promise<Problem[]> {
  const out: Problem[] = [];
  for (const c of incoming) {
    const held = await git.readBlob({ ...ctx.store.access, oid: tree, filepath: c.path }).catch(() => null);
    const expected = held ? { oid: held.oid, mode: '' } : null;
    if (!(await fileMatches(ctx.fs, ctx.toAbs(c.path), expected)))
      out.push({ path: c.path, message: 'changed in the workspace since its last snapshot' });
  }
  return out;
}
