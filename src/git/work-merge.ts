import * as git from 'isomorphic-git';
import type { Problem } from '../contract/index.js';
import { readCommit, type GitAccess } from '../snapshots/object-reader.js';
import { readTreeEntries, serializeTree, TREE_MODE, type TreeEntry } from '../snapshots/objects.js';
import { objectId } from '../snapshots/sha1.js';
import { fileMatches } from './checkout.js';
import type { GitContext } from './context.js';
import { isSkippedPath } from './safe-path.js';
import { diffTrees, type FileChange, type TreeFile } from './tree-diff.js';
import type { Loose, WorkRepo } from './work-sync.js';

/** The merge commit a pull makes in the workspace's `.git`, as `git pull` (merge, its default) makes it. */
export interface WorkMerge {
  /** the merge commit: parents `.git`'s HEAD and the pulled commit */
  commit: string;
  /** the new trees and the commit, for `.git` */
  objects: Loose[];
  /** the files that differ between `.git`'s HEAD and the merge: the index rows that change */
  changes: FileChange[];
  /** why the merge cannot be made as git makes it (nothing is changed then) */
  problems: Problem[];
}

const encoder = new TextEncoder();

/**
 * Merge the pulled commit `theirs` (in the shadow repository) into `.git`'s HEAD, holding commits
 * of its own, by git's tree-level rules: a path changed on one side takes that side; changed the
 * same way on both, either. A path both changed differently is where git would merge the two
 * versions line by line and, failing, stop with conflict markers and MERGE_HEAD: this merge does
 * not do that, so such a path is a problem and the pull changes nothing. A path the merge changes
 * must hold, in the work tree and the index, what `.git`'s HEAD has (or already the merge's own
 * version), as git refuses to overwrite local changes. Null when `.git`'s history and the pulled
 * one meet in more than one place (a criss-cross): then only `origin/<branch>` moves.
 */
export async function planWorkMerge(
  ctx: GitContext,
  repo: WorkRepo,
  theirs: string,
  branch: string,
  url: string,
): Promise<WorkMerge | null> {
  const shadow: GitAccess = { ...ctx.store.access };
  if (repo.roots.length !== 1 || !repo.head) return null;
  const bases = await git.findMergeBase({ ...shadow, oids: [repo.roots[0]!, theirs] }).catch(() => [] as string[]);
  if (bases.length !== 1) return null;
  const [base, ours, pulled] = await Promise.all([
    readCommit(shadow, bases[0]!),
    readCommit(repo.access, repo.head),
    readCommit(shadow, theirs),
  ]);
  const incoming = await diffTrees(shadow, base.tree, pulled.tree);
  const mine = new Map((await diffTrees(repo.access, base.tree, ours.tree)).map((c) => [c.path, c]));
  const problems: Problem[] = [];
  const changes: FileChange[] = [];
  for (const c of incoming) {
    const m = mine.get(c.path);
    if (m) {
      if (!sameFile(m.after, c.after))
        problems.push({
          path: c.path,
          message:
            "changed by a commit in the workspace's .git and on the remote: git would merge the two versions line by line (and stop on a conflict), which this pull does not do",
        });
      continue;
    }
    if ([...mine.keys()].some((p) => p.startsWith(`${c.path}/`) || c.path.startsWith(`${p}/`)))
      problems.push({ path: c.path, message: "a file on one side is a folder on the other in the workspace's .git" });
    else changes.push(c);
  }
  const rows = new Map(repo.index.map((r) => [r.path, r]));
  for (const c of changes) {
    const row = rows.get(c.path);
    if (row?.skipWorktree) continue;
    const staged = row ? sameFile(row, c.before) && (row.stage ?? 0) === 0 : c.before === null;
    if (!staged) {
      problems.push({ path: c.path, message: "staged in the workspace's .git and changed by the merge" });
      continue;
    }
    const abs = ctx.toAbs(c.path);
    if (
      !isSkippedPath(c.path) &&
      !(await fileMatches(ctx.fs, abs, c.before)) &&
      !(await fileMatches(ctx.fs, abs, c.after))
    )
      problems.push({
        path: c.path,
        message: "has changes not committed in the workspace's .git that the merge would overwrite",
      });
  }
  const objects: Loose[] = [];
  const tree = (await rewriteTree(repo.access, ours.tree, changes, '', objects)) ?? (await emptyTree(objects));
  const who = await author(repo);
  const stamp = `${who.name} <${who.email}> ${Math.floor(Date.now() / 1000)} ${zone(new Date().getTimezoneOffset())}`;
  const text =
    `tree ${tree}\nparent ${repo.head}\nparent ${theirs}\nauthor ${stamp}\ncommitter ${stamp}\n\n` +
    `${mergeMessage(branch, url, repo.branch)}\n`;
  const content = encoder.encode(text);
  const commit = objectId('commit', content);
  objects.push({ oid: commit, type: 'commit', content });
  return { commit, objects, changes, problems };
}

const sameFile = (a: TreeFile | null | undefined, b: TreeFile | null | undefined) =>
  a && b ? a.oid === b.oid && a.mode === b.mode : !a && !b;

/** git's title for a pull's merge: `Merge branch 'x' of URL` (a trailing `.git` dropped), ` into y` off main and master. */
export function mergeMessage(branch: string, url: string, current: string | null): string {
  const where = url.replace(/\/+$/, '').replace(/\.git$/, '');
  const into = current && current !== 'main' && current !== 'master' ? ` into ${current}` : '';
  return `Merge branch '${branch}' of ${where}${into}`;
}

/** `.git/config`'s user (the Git tab's author), else the Git tab's default. */
async function author(repo: WorkRepo): Promise<{ name: string; email: string }> {
  const get = (path: string) =>
    git.getConfig({ fs: repo.access.fs, gitdir: repo.access.gitdir, path }).catch(() => undefined);
  const [name, email] = await Promise.all([get('user.name'), get('user.email')]);
  return typeof name === 'string' && name
    ? { name, email: typeof email === 'string' ? email : '' }
    : { name: 'Sandpit', email: 'sandpit@localhost' };
}

/** `+zzzz` from JavaScript's offset (minutes behind UTC). */
function zone(offset: number): string {
  const minutes = Math.abs(offset);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${offset > 0 ? '-' : '+'}${two(Math.floor(minutes / 60))}${two(minutes % 60)}`;
}

async function emptyTree(objects: Loose[]): Promise<string> {
  const content = new Uint8Array();
  const oid = objectId('tree', content);
  objects.push({ oid, type: 'tree', content });
  return oid;
}

/**
 * `tree` (read from `access`) with `changes` applied, the new trees added to `objects`; null when
 * nothing is left in it. Only the folders on a changed path are read and rewritten.
 */
async function rewriteTree(
  access: GitAccess,
  tree: string | null,
  changes: FileChange[],
  prefix: string,
  objects: Loose[],
): Promise<string | null> {
  if (changes.length === 0) return tree;
  const entries = new Map<string, TreeEntry & { kind: string }>();
  for (const e of tree ? await readTreeEntries(access, tree) : [])
    entries.set(e.path, { ...e, type: e.type === 'tree' ? 'tree' : 'blob', kind: e.type });
  const below = new Map<string, FileChange[]>();
  for (const c of changes) {
    const rest = c.path.slice(prefix.length);
    const cut = rest.indexOf('/');
    if (cut < 0) {
      if (c.after) entries.set(rest, { path: rest, oid: c.after.oid, mode: c.after.mode, type: 'blob', kind: 'blob' });
      else entries.delete(rest);
    } else {
      const name = rest.slice(0, cut);
      below.set(name, [...(below.get(name) ?? []), c]);
    }
  }
  for (const [name, list] of below) {
    const was = entries.get(name);
    const sub = await rewriteTree(access, was?.kind === 'tree' ? was.oid : null, list, `${prefix}${name}/`, objects);
    if (sub) entries.set(name, { path: name, oid: sub, mode: TREE_MODE, type: 'tree', kind: 'tree' });
    else if (was?.kind === 'tree') entries.delete(name);
  }
  if (entries.size === 0) return null;
  const content = serializeTree([...entries.values()].map(({ kind: _, ...e }) => e));
  const oid = objectId('tree', content);
  objects.push({ oid, type: 'tree', content });
  return oid;
}
