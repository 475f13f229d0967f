import '../snapshots/global-buffer.js';
import * as git from 'isomorphic-git';
import type { WorkspaceFs } from '../fs/types.js';
import type { SnapshotStore } from '../snapshots/store.js';
import type { FileWriter } from '../workspace/file-writer.js';
import { ToolError } from '../contract/index.js';
import { secretsOf, splitRemoteUrl, type GitCredentials } from './redact.js';
import type { RemoteOptions } from './transport.js';

/** What the git verbs work on: the workspace's backend, its root mapping and its shadow repository. */
export interface GitContext {
  fs: WorkspaceFs;
  toAbs(rel: string): string;
  store: SnapshotStore;
  /** the workspace's one write path: every file the verbs change goes through it */
  writer: FileWriter;
}

/** The last remote commit the workspace is known to contain: a squash's parent, a pull's "have". */
export const UPSTREAM_REF = 'refs/sandpit/upstream';
/** The refspec isomorphic-git needs to record what a fetch brought. */
export const FETCH_REFSPEC = '+refs/heads/*:refs/remotes/origin/*';
/** Where a squashed commit waits to be pushed (the snapshot branch is never rewritten). */
export const SQUASH_REF = 'refs/sandpit/squash';

/** The remote a clone or push remembers, stored without credentials in the shadow repository's config. */
export async function rememberRemote(store: SnapshotStore, url: string, branch: string): Promise<void> {
  const { fs, gitdir } = store.access;
  await git.setConfig({ fs, gitdir, path: 'remote.origin.url', value: url });
  await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: FETCH_REFSPEC });
  await git.setConfig({ fs, gitdir, path: 'sandpit.branch', value: branch });
}

/** The URL and branch to use: the caller's, else what the last clone or push remembered. */
export async function resolveRemote(
  store: SnapshotStore,
  url: unknown,
  branch: unknown,
): Promise<{ url: string; auth: GitCredentials | null; branch: string }> {
  const { fs, gitdir } = store.access;
  const savedUrl =
    url === undefined
      ? await git.getConfig({ fs, gitdir, path: 'remote.origin.url' }).catch(() => undefined)
      : undefined;
  if (url === undefined && !savedUrl) {
    throw new ToolError('INVALID_ARGUMENTS', 'no remote URL was given and the workspace was not cloned from one', {
      hint: 'Pass url.',
    });
  }
  const remote = splitRemoteUrl(url ?? savedUrl);
  const savedBranch =
    branch === undefined
      ? await git.getConfig({ fs, gitdir, path: 'sandpit.branch' }).catch(() => undefined)
      : undefined;
  const name = checkBranch(branch ?? savedBranch);
  return { ...remote, branch: name };
}

/**
 * Where a push or a pull goes, after the tools' pending changes are snapshotted. The credentials
 * found are added to `secrets` as soon as they are known, so any later error can be scrubbed.
 */
export async function remoteForTransfer(
  store: SnapshotStore,
  options: RemoteOptions & { branch?: string },
  secrets: string[],
  before: string,
): Promise<{ url: string; auth: GitCredentials | null; branch: string }> {
  const remote = await resolveRemote(store, options.url, options.branch);
  secrets.push(...secretsOf(remote.auth, typeof options.auth === 'object' ? options.auth : null));
  if (store.pending.size > 0) await store.commitPending({ message: before });
  await store.open();
  return remote;
}

/** A branch name git accepts (a subset of check-ref-format), without `refs/heads/`. */
export function checkBranch(raw: unknown): string {
  const name = typeof raw === 'string' ? raw.replace(/^refs\/heads\//, '') : '';
  const bad = !name || /[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|\/\/|^[-/.]|[/.]$|\.lock$|\/\./.test(name) || name === '@';
  if (bad) {
    throw new ToolError(
      'INVALID_ARGUMENTS',
      raw ? `'${String(raw).slice(0, 100)}' is not a valid branch name` : 'a branch name is required',
      {
        hint: 'Use a name like agent/fix-login: letters, digits, dashes, slashes, no spaces or `..`.',
      },
    );
  }
  return name;
}

/** A depth for a shallow fetch: a positive integer, or undefined for the whole history. */
export function checkDepth(raw: unknown): number | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < 1) {
    throw new ToolError('INVALID_ARGUMENTS', 'depth must be a positive integer', {
      hint: 'Use depth: 1 for only the newest commit, or leave it out for the whole history.',
    });
  }
  return raw;
}

/** A short random suffix for a staging folder. */
export const randomSuffix = () => Math.random().toString(36).slice(2, 10);
