// Imported here as well as where they are used: a bundle's clone chunk then names them itself, and
// a worker fetches them beside its other imports instead of a level later, after the chunks that
// import them have arrived (each level is a fetch and a compile before the first request to the remote).
import '../snapshots/global-buffer.js';
import './repo-files.js';
import './work-index.js';
import * as git from 'isomorphic-git';
import { hasFsCode } from '../fs/errors.js';
import { parseTreeEntries, readTreeEntries, type GitAccess } from '../snapshots/objects.js';
import { ToolError } from '../contract/index.js';
import { removeTree, writeChanges } from './checkout.js';
import {
  checkBranch,
  FETCH_REFSPEC,
  checkDepth,
  randomSuffix,
  rememberRemote,
  UPSTREAM_REF,
  type GitContext,
} from './context.js';
import { toGitError } from './errors.js';
import { progressReporter, type GitProgressListener } from './progress.js';
import { secretsOf, splitRemoteUrl } from './redact.js';
import { isSkippedPath } from './safe-path.js';
import { capturePack, storePack } from './pack-capture.js';
import { diffTrees, type FileChange, type TreeSource } from './tree-diff.js';
import type { IndexedPack } from './index-pack.js';
import { authCallback, type RemoteOptions } from './transport.js';
import { checkAuthor, writeWorkRepo, type GitAuthor } from './work-repo.js';

export interface CloneOptions extends RemoteOptions {
  url: string;
  /** a branch or tag (default: the remote's default branch) */
  ref?: string;
  /** fetch only this many commits of history (1: the newest only) */
  depth?: number;
  /** told of each phase as it goes */
  onProgress?: GitProgressListener;
  /** a file larger than this is not written, and is listed in `skipped` (default 100 MiB) */
  maxFileBytes?: number;
  /** files that would total more than this stop the clone with TOO_LARGE, nothing written (default 2 GiB) */
  maxTotalBytes?: number;
  /** `user.name` and `user.email` in the workspace's `.git/config`: who the shell's `git commit` records */
  author?: GitAuthor;
}

const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;
const DEFAULT_MAX_TOTAL_BYTES = 2 * 1024 * 1024 * 1024;

/** What `git.clone` did: the remote, the ref and commit checked out, and how many files it wrote. */
export interface CloneResult {
  /** the remote, without credentials */
  url: string;
  /** the branch or tag that was checked out */
  ref: string;
  /** the commit the workspace now holds: also its newest snapshot */
  commit: string;
  /** how many files were written */
  files: number;
  /** true when only part of the history was fetched */
  shallow: boolean;
  /** paths in the repository that were not written (Sandpit's own `.sandpit` folder, nested `.git`) */
  skipped: string[];
}

/**
 * Clone into an empty workspace. The fetch goes to a staging gitdir inside `.sandpit`; only when
 * every file is written do its packs move into the shadow repository and the fetched commit
 * become the snapshot branch's head, so later snapshots descend from it and a push is a
 * fast-forward. The workspace also gets its own `.git`, as `git clone` leaves one, for the
 * shell's git. Any failure removes what was written: the backend is left as it was.
 */
export async function cloneInto(ctx: GitContext, options: CloneOptions): Promise<CloneResult> {
  const { url, auth: urlAuth } = splitRemoteUrl(options?.url);
  const secrets = secretsOf(urlAuth, typeof options.auth === 'object' ? options.auth : null);
  // Opening the store makes `.sandpit`; a clone that fails must not leave it behind.
  const hadState = await ctx.fs.lstat(ctx.toAbs('.sandpit')).then(
    () => true,
    () => false,
  );
  try {
    const depth = checkDepth(options.depth);
    const ref = options.ref === undefined ? undefined : checkBranch(options.ref);
    const author = checkAuthor(options.author);
    const { store, fs, toAbs } = ctx;
    await store.open();
    return await store.exclusive(async () => {
      await assertEmpty(ctx);
      // the checkout's thousands of files need no watch: adopting the clone looks at everything next
      store.pauseWatching();
      const progress = progressReporter(options.onProgress);
      const staging: GitAccess = { fs: store.access.fs, gitdir: toAbs(`.sandpit/clone-${randomSuffix()}`), cache: {} };
      try {
        await git.init({ fs: staging.fs, gitdir: staging.gitdir, bare: true });
        await git.setConfig({
          fs: staging.fs,
          gitdir: staging.gitdir,
          path: 'remote.origin.fetch',
          value: FETCH_REFSPEC,
        });
        const capture = capturePack({ maxObjectBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
        const fetched = await git.fetch({
          fs: staging.fs,
          http: capture.http,
          gitdir: staging.gitdir,
          cache: staging.cache,
          url,
          ref,
          singleBranch: true,
          tags: false,
          ...(depth ? { depth } : {}),
          corsProxy: options.corsProxy,
          onProgress: progress,
          onAuth: authCallback(options.auth, urlAuth, secrets),
        });
        if (!fetched.fetchHead)
          throw new ToolError('NOT_FOUND', `the repository at '${url}' is empty: there is nothing to clone`);
        const { sizes, read, object } = await storePack(fs, staging.gitdir, capture);
        const { commit, tree } = await fetchedCommit(object, staging, fetched.fetchHead);
        const gitlinks: FileChange[] = [];
        // the trees from the pack just indexed, most already inflated, else from the staging repository
        const trees = object ? treesOf(object, staging) : staging;
        const all = await diffTrees(trees, null, tree, '', gitlinks);
        const { changes, skipped, left } = applyCaps(all, sizes, options);
        const name = ref ?? (fetched.defaultBranch ?? 'HEAD').replace(/^refs\/heads\//, '');
        try {
          await writeChanges(ctx.writer, staging, changes, {
            tool: 'git_clone',
            intoEmpty: true,
            readBlob: read,
            onFile: (done) => progress({ phase: 'Writing files', loaded: done, total: changes.length }),
          });
          const adopted = await adoptObjects(ctx, staging.gitdir);
          const isTag = fetched.fetchHeadDescription?.startsWith('tag ') === true;
          const branch = isTag || name === 'HEAD' ? null : name;
          await writeWorkRepo(ctx, {
            url,
            branch,
            tag: isTag ? name : null,
            commit,
            fetched: fetched.fetchHead,
            remoteDefault:
              branch !== null && `refs/heads/${branch}` === (fetched.defaultBranch ?? `refs/heads/${branch}`),
            packs: adopted.packs.map((p) => ({
              name: p,
              read: () => fs.readFile(`${store.access.gitdir}/objects/pack/${p}`),
            })),
            shallow: adopted.shallow,
            files: changes.map((c) => ({ path: c.path, ...c.after! })),
            notWritten: [...left, ...gitlinks].map((c) => ({ path: c.path, ...c.after! })),
            ...(author ? { author } : {}),
          });
          await store.adopt(commit);
        } catch (error) {
          await wipeFiles(ctx);
          throw error;
        }
        await git.writeRef({ ...store.access, ref: UPSTREAM_REF, value: commit, force: true });
        await rememberRemote(store, url, name);
        const shallow = await fs.lstat(`${store.access.gitdir}/shallow`).then(
          () => true,
          () => false,
        );
        return { url, ref: name, commit, files: changes.length, shallow, skipped };
      } finally {
        await removeTree(fs, staging.gitdir).catch(() => {});
      }
    });
  } catch (error) {
    if (!hadState) {
      await ctx.store.exclusive(async () => {
        await removeTree(ctx.fs, ctx.toAbs('.sandpit')).catch(() => {});
        ctx.store.reset();
      });
    }
    throw toGitError(error, 'clone', url, secrets);
  }
}

/**
 * The fetched commit and its tree, read through the indexed pack's reader: isomorphic-git's
 * readCommit loads the pack's index and the whole pack from the store to find one object the
 * indexer has just read. An annotated tag (peeled by readCommit) or no reader: isomorphic-git's way.
 */
async function fetchedCommit(
  object: IndexedPack['object'] | undefined,
  staging: GitAccess,
  oid: string,
): Promise<{ commit: string; tree: string }> {
  const found = object ? await object(oid) : null;
  // a commit's first line is `tree <id>` (git writes no other first line)
  const first =
    found?.type === 'commit'
      ? /^tree ([0-9a-f]{40})\n/.exec(new TextDecoder().decode(found.data.subarray(0, 46)))
      : null;
  if (first) return { commit: oid, tree: first[1]! };
  const read = await git.readCommit({ ...staging, oid });
  return { commit: read.oid, tree: read.commit.tree };
}

/** Read trees through the indexed pack's reader; one it lacks (none should) from the repository. */
function treesOf(object: NonNullable<IndexedPack['object']>, staging: GitAccess): TreeSource {
  return async (oid) => {
    const found = await object(oid);
    if (!found) return readTreeEntries(staging, oid);
    if (found.type !== 'tree') throw new Error(`object ${oid} is a ${found.type}, not a tree`);
    return parseTreeEntries(found.data, oid);
  };
}

/** Leave out unsafe paths and files over the largest-file cap; refuse a total over the total cap. */
function applyCaps(
  all: FileChange[],
  sizes: Map<string, number>,
  options: CloneOptions,
): { changes: FileChange[]; skipped: string[]; left: FileChange[] } {
  const maxFile = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const maxTotal = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const changes: FileChange[] = [];
  const skipped: string[] = [];
  const left: FileChange[] = [];
  let total = 0;
  for (const c of all) {
    if (isSkippedPath(c.path)) {
      skipped.push(c.path);
      left.push(c);
      continue;
    }
    const size = c.after ? (sizes.get(c.after.oid) ?? 0) : 0;
    if (size > maxFile) {
      skipped.push(`${c.path} (${size} bytes, over the ${maxFile}-byte file cap)`);
      left.push(c);
      continue;
    }
    total += size;
    changes.push(c);
  }
  if (total > maxTotal) {
    throw new ToolError(
      'TOO_LARGE',
      `the repository's files total ${total} bytes, over the clone's cap of ${maxTotal} bytes; nothing was written`,
      {
        hint: 'Clone a smaller ref or with depth 1, or raise maxTotalBytes if the workspace can hold it.',
      },
    );
  }
  return { changes, skipped, left };
}

async function assertEmpty({ fs, toAbs }: GitContext): Promise<void> {
  const names = (await fs.readdir(toAbs(''))).filter((n) => n !== '.sandpit').sort();
  if (names.length > 0) {
    throw new ToolError(
      'DIRECTORY_NOT_EMPTY',
      `the workspace already has files (${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}); a clone needs an empty workspace`,
      {
        hint: 'Clone into a new, empty workspace, or delete its files first.',
      },
    );
  }
}

/** Move the staging repository's packs (and its shallow list) into the shadow repository; gives the packs' names. */
async function adoptObjects(
  { fs, store }: GitContext,
  staging: string,
): Promise<{ packs: string[]; shallow: Uint8Array | null }> {
  const gitdir = store.access.gitdir;
  const names = await fs.readdir(`${staging}/objects/pack`).catch(() => [] as string[]);
  await fs.mkdir(`${gitdir}/objects/pack`, { recursive: true }).catch((e) => {
    if (!hasFsCode(e, 'EEXIST')) throw e;
  });
  // A pack before its index: git and isomorphic-git find packs through their .idx files.
  for (const name of names.sort((a, b) => Number(b.endsWith('.pack')) - Number(a.endsWith('.pack')))) {
    await fs.rename(`${staging}/objects/pack/${name}`, `${gitdir}/objects/pack/${name}`);
  }
  const shallow = await fs.readFile(`${staging}/shallow`).catch(() => null);
  if (shallow) await fs.writeFile(`${gitdir}/shallow`, shallow);
  else await fs.unlink(`${gitdir}/shallow`).catch(() => {});
  return { packs: names, shallow };
}

/** Undo a part-written checkout: the workspace was empty apart from `.sandpit`. */
async function wipeFiles({ fs, toAbs }: GitContext): Promise<void> {
  for (const name of await fs.readdir(toAbs(''))) if (name !== '.sandpit') await removeTree(fs, toAbs(name));
}
