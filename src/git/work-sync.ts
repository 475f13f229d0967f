import * as git from 'isomorphic-git';
import {
  hasObject,
  readCommit,
  readObject,
  type GitAccess,
  type StoredObjectType,
} from '../snapshots/object-reader.js';
import { parseTreeEntries } from '../snapshots/objects.js';
import { objectId, wrapObject } from '../snapshots/sha1.js';
import { compress } from '../snapshots/zlib.js';
import type { FileStep } from '../workspace/file-writer.js';
import type { Problem } from '../contract/index.js';
import type { GitContext } from './context.js';
import { fileMatches } from './checkout.js';
import { isSkippedPath } from './safe-path.js';
import { diffTrees, type FileChange } from './tree-diff.js';
import { parseIndex, serializeIndex, type IndexRow } from './work-index.js';

/**
 * The workspace's own `.git` as a clone left it, when it is the clone of the remote a push or a
 * pull talks to. The snapshot history (the shadow repository) is the record of every change to
 * the files; `.git` is the repository git sees. They share the remote's commits: a pull or push
 * leaves `.git`'s branch, `origin/<branch>` and the index on the commit the remote now has, as
 * `git pull` and `git push` would, copying into `.git` the objects it lacks.
 */
export interface WorkRepo {
  access: GitAccess;
  /** the branch HEAD is on (null: detached) */
  branch: string | null;
  /** the commit HEAD names (null: none yet) */
  head: string | null;
  index: IndexRow[];
  /** commits of `.git` the shadow repository lacks (made by the shell's `git commit`), newest first */
  own: string[];
  /** where those commits start: the commits both repositories hold */
  roots: string[];
}

const decoder = new TextDecoder();
/** How far back a walk for the shell's own commits goes before it gives up on `.git`. */
const OWN_LIMIT = 1_000;

/** The workspace's `.git`, when it is a clone of `url` (its `origin`, stored without credentials); else null. */
export async function openWorkRepo(ctx: GitContext, url: string): Promise<WorkRepo | null> {
  const access: GitAccess = { fs: ctx.store.access.fs, gitdir: ctx.toAbs('.git'), cache: {} };
  const headText = await ctx.fs.readFile(`${access.gitdir}/HEAD`).then(
    (b) => decoder.decode(b),
    () => null,
  );
  if (headText === null) return null;
  const origin = await git
    .getConfig({ fs: access.fs, gitdir: access.gitdir, path: 'remote.origin.url' })
    .catch(() => undefined);
  if (origin !== url) return null;
  const branch = /^ref: refs\/heads\/(.+)\n?$/.exec(headText)?.[1] ?? null;
  const head = await git.resolveRef({ fs: access.fs, gitdir: access.gitdir, ref: 'HEAD' }).catch(() => null);
  const bytes = await ctx.fs.readFile(`${access.gitdir}/index`).catch(() => null);
  let index: IndexRow[];
  try {
    index = bytes ? parseIndex(bytes) : [];
  } catch {
    // an index no git could read either: the verbs leave such a .git alone rather than fail
    return null;
  }
  const shadow: GitAccess = { ...ctx.store.access, cache: {} };
  const own: string[] = [];
  const roots = new Set<string>();
  const seen = new Set<string>();
  const stack = head ? [head] : [];
  while (stack.length > 0) {
    const oid = stack.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    if (await hasObject(shadow, oid)) {
      roots.add(oid);
      continue;
    }
    if (own.length >= OWN_LIMIT) return null;
    own.push(oid);
    const parents = await readCommit(access, oid).then(
      (c) => c.parent,
      () => null,
    );
    if (!parents) return null;
    stack.push(...parents);
  }
  return { access, branch, head, index, own, roots: [...roots] };
}

/** Whether `ancestor` is `oid` or one of its ancestors, in the shadow repository. */
export async function reaches(ctx: GitContext, oid: string, ancestor: string): Promise<boolean> {
  if (oid === ancestor) return true;
  return git.isDescendent({ ...ctx.store.access, oid, ancestor, depth: -1 }).catch(() => false);
}

/** Whether `.git`'s HEAD holds `commit` in its history (the shell's commits sit on top of it). */
export async function holds(ctx: GitContext, repo: WorkRepo, commit: string): Promise<boolean> {
  for (const root of repo.roots) if (await reaches(ctx, root, commit)) return true;
  return false;
}

/** One object as a loose file would hold it. */
export interface Loose {
  oid: string;
  type: StoredObjectType;
  content: Uint8Array;
}

/**
 * The objects reachable from `tips` in `from` that `to` lacks: a commit `to` holds ends the walk
 * (its history is there), as does a parent `from` lacks (a shallow history's edge); a tree `to`
 * holds is skipped whole; submodule commits named by trees are not followed.
 */
export async function missingObjects(from: GitAccess, to: GitAccess, tips: string[]): Promise<Loose[]> {
  const target: GitAccess = { ...to, cache: {} };
  const out: Loose[] = [];
  const seen = new Set<string>();
  const want = async (oid: string) => {
    if (seen.has(oid)) return false;
    seen.add(oid);
    return !(await hasObject(target, oid));
  };
  const trees: string[] = [];
  const commits = [...tips];
  while (commits.length > 0) {
    const oid = commits.pop()!;
    if (!(await want(oid))) continue;
    const object = await readObject(from, oid).catch(() => null);
    if (!object) continue;
    out.push({ oid, ...object });
    const fields = await readCommit(from, oid);
    trees.push(fields.tree);
    commits.push(...fields.parent);
  }
  while (trees.length > 0) {
    const oid = trees.pop()!;
    if (!(await want(oid))) continue;
    const object = await readObject(from, oid);
    out.push({ oid, ...object });
    for (const e of parseTreeEntries(object.content, oid)) {
      if (e.type === 'tree') trees.push(e.oid);
      else if (e.type === 'blob' && (await want(e.oid))) out.push({ oid: e.oid, ...(await readObject(from, e.oid)) });
    }
  }
  return out;
}

/** Copy objects into the shadow repository (the shell's commits a push sends). */
export async function copyIntoShadow(ctx: GitContext, objects: Loose[]): Promise<void> {
  const { fs, gitdir } = ctx.store.access;
  for (const o of objects) await git.writeObject({ fs, gitdir, type: o.type, object: o.content, format: 'content' });
}

/** What a push or pull moves in `.git`. */
export interface WorkRepoMove {
  /** objects `.git` lacks */
  objects: Loose[];
  /** the remote branch and the commit it is at now: `refs/remotes/origin/<branch>` */
  remote: { branch: string; commit: string };
  /**
   * the checked-out branch's new commit, and the files whose index rows change with it (`changes`:
   * given for a merge commit `.git` holds alone; else the trees of `from` and `to` in the shadow
   * repository are compared); `pulled`: a pull moved it, so ORIG_HEAD names where it was, as git leaves it
   */
  head?: { from: string | null; to: string; changes?: FileChange[]; pulled?: boolean };
}

/**
 * Index rows that git's paths changed between two trees would leave staged: a change the move
 * would overwrite, so the pull refuses with nothing changed (as `git pull` does).
 */
export async function stagedCollisions(
  repo: WorkRepo,
  access: GitAccess,
  fromTree: string | null,
  toTree: string,
): Promise<Problem[]> {
  const rows = new Map(repo.index.map((r) => [r.path, r]));
  const out: Problem[] = [];
  for (const c of await diffTrees(access, fromTree, toTree)) {
    const row = rows.get(c.path);
    if (row?.skipWorktree) continue;
    const same = row ? row.oid === c.before?.oid && row.mode === c.before.mode : c.before === null;
    if (!same) out.push({ path: c.path, message: "staged in the workspace's .git and changed on the remote" });
  }
  return out;
}

/**
 * Move `.git` as a pull or push leaves it: the objects first, then `origin/<branch>`, the checked-out
 * branch and the index rows of the paths that changed between the old and new commit (with the
 * stat of the files as written, so git takes them as unchanged), through the one write path with
 * the shell's git capability, all or nothing, and in no change of its own.
 */
export async function moveWorkRepo(ctx: GitContext, repo: WorkRepo, move: WorkRepoMove): Promise<void> {
  const steps: FileStep[] = [];
  for (const o of move.objects) {
    const bytes = await compress(ctx.fs, wrapObject(o.type, o.content));
    if (objectId(o.type, o.content) !== o.oid) throw new Error(`object ${o.oid} does not hash to its id`);
    steps.push({ kind: 'write', rel: `.git/objects/${o.oid.slice(0, 2)}/${o.oid.slice(2)}`, bytes });
  }
  const text = (rel: string, oid: string): FileStep => ({
    kind: 'write',
    rel,
    bytes: new TextEncoder().encode(`${oid}\n`),
  });
  steps.push(text(`.git/refs/remotes/origin/${move.remote.branch}`, move.remote.commit));
  if (move.head && repo.branch) {
    const { from, to } = move.head;
    const rows = new Map(repo.index.map((r) => [r.path, r]));
    const changed = async () => {
      const fromTree = from ? (await readCommit({ ...ctx.store.access }, from)).tree : null;
      const toTree = (await readCommit({ ...ctx.store.access }, to)).tree;
      return diffTrees(ctx.store.access, fromTree, toTree);
    };
    for (const c of move.head.changes ?? (await changed())) {
      if (!c.after) {
        rows.delete(c.path);
        continue;
      }
      const abs = ctx.toAbs(c.path);
      const stat = await ctx.fs.lstat(abs).catch(() => null);
      const row: IndexRow = { path: c.path, oid: c.after.oid, mode: c.after.mode, stat: null };
      if (!stat) row.skipWorktree = isSkippedPath(c.path);
      // the stat only of a file that holds what the row says: any other is hashed by git's next look
      else if (stat.type !== 'dir' && (await fileMatches(ctx.fs, abs, c.after))) row.stat = stat;
      rows.set(c.path, row);
    }
    steps.push(text(`.git/refs/heads/${repo.branch}`, to));
    if (from && move.head.pulled) steps.push(text('.git/ORIG_HEAD', from));
    steps.push({ kind: 'write', rel: '.git/index', bytes: serializeIndex([...rows.values()]) });
  }
  await ctx.writer.apply(steps, { gitCommand: true, allOrNothing: true, noteForSnapshot: false, parallel: 16 });
}
