import { ToolError } from '../contract/index.js';
import type { FileStep } from '../workspace/file-writer.js';
import { parallel } from '../workspace/parallel.js';
import type { FsStat } from '../fs/types.js';
import type { GitContext } from './context.js';
import { configValue, coreConfig, REPO_DESCRIPTION, REPO_EXCLUDE } from './repo-files.js';
import type { TreeFile } from './tree-diff.js';
import { serializeIndex, type IndexRow } from './work-index.js';

/** Who the workspace's own commits (the shell's `git commit`) are by: the repository's `user.name` and `user.email`. */
export interface GitAuthor {
  /** `user.name`: one line */
  name: string;
  /** `user.email`: one line, may be empty */
  email: string;
}

/** What a clone leaves in the workspace's own `.git`, so the shell's git (and the real one) finds a repository. */
export interface WorkRepoPlan {
  /** the remote, without credentials */
  url: string;
  /** the branch checked out, or null (HEAD then detached at `commit`) */
  branch: string | null;
  /** the tag checked out, when it was one */
  tag: string | null;
  /** the commit checked out */
  commit: string;
  /** what the fetched ref names: the commit, or an annotated tag's own object */
  fetched: string;
  /** whether `branch` is the remote's default branch, which `refs/remotes/origin/HEAD` names */
  remoteDefault: boolean;
  /** the fetched packs by file name (`pack-<sha>.pack` and `.idx`), each read only when written */
  packs: Array<{ name: string; read: () => Promise<Uint8Array> }>;
  /** the shallow commits of a clone with a depth */
  shallow: Uint8Array | null;
  /** the files the checkout wrote, for the index */
  files: Array<{ path: string } & TreeFile>;
  /** what the checkout left out (over the file cap, unsafe names, submodules): in the index as skip-worktree */
  notWritten?: Array<{ path: string } & TreeFile>;
  author?: GitAuthor;
}

const PARALLEL = 16;
const encoder = new TextEncoder();

/** An author as the clone takes it: a name and an email, each on one line; refused with nothing changed. */
export function checkAuthor(raw: unknown): GitAuthor | undefined {
  if (raw === undefined || raw === null) return undefined;
  const a = raw as Partial<GitAuthor>;
  if (typeof a !== 'object' || typeof a.name !== 'string' || typeof a.email !== 'string' || !a.name.trim()) {
    throw new ToolError('INVALID_ARGUMENTS', 'author must be { name, email } with a name', {
      hint: 'Give author: { name: "Your Name", email: "you@example.com" }, or leave it out.',
    });
  }
  configValue(a.name, 'the author name');
  configValue(a.email, "the author's email");
  return { name: a.name.trim(), email: a.email.trim() };
}

function configText(plan: WorkRepoPlan, abilities: { filemode: boolean; symlinks: boolean }): string {
  const fetch = plan.branch
    ? `+refs/heads/${plan.branch}:refs/remotes/origin/${plan.branch}`
    : plan.tag
      ? `+refs/tags/${plan.tag}:refs/tags/${plan.tag}`
      : '+refs/heads/*:refs/remotes/origin/*';
  let text = `${coreConfig(abilities)}[remote "origin"]\n\turl = ${configValue(plan.url, 'the remote URL')}\n\tfetch = ${fetch}\n`;
  if (plan.branch) text += `[branch "${plan.branch}"]\n\tremote = origin\n\tmerge = refs/heads/${plan.branch}\n`;
  if (plan.author)
    text += `[user]\n\tname = ${configValue(plan.author.name, 'the author name')}\n\temail = ${configValue(plan.author.email, "the author's email")}\n`;
  return text;
}

/**
 * Write the workspace's `.git` after a clone's checkout, as `git clone --single-branch` leaves
 * it: the fetched packs, HEAD on the branch (detached at a tag), the branch and its
 * remote-tracking ref, a config naming `origin` (its URL never holds credentials) and an index
 * of the files just written, with their stat data. It goes through the one write path with the
 * shell's git capability, all or nothing, recorded in no change: the checkout is the clone's change.
 */
export async function writeWorkRepo(ctx: GitContext, plan: WorkRepoPlan): Promise<void> {
  const { fs, writer } = ctx;
  const stats = await statsOf(
    ctx,
    plan.files.map((f) => f.path),
  );
  const rows: IndexRow[] = plan.files.map((f) => ({
    path: f.path,
    oid: f.oid,
    mode: f.mode,
    stat: stats.get(f.path) ?? null,
  }));
  for (const f of plan.notWritten ?? []) rows.push({ ...f, stat: null, skipWorktree: true });
  const abilities = { filemode: fs.capabilities?.modes === true, symlinks: fs.capabilities?.symlinks !== false };
  const text = (rel: string, content: string): FileStep => ({
    kind: 'write',
    rel: `.git/${rel}`,
    bytes: encoder.encode(content),
  });
  const steps: FileStep[] = ['objects/info', 'objects/pack', 'refs/heads', 'refs/tags', 'info'].map((d) => ({
    kind: 'mkdir',
    rel: `.git/${d}`,
  }));
  // a pack before its index: readers find packs through their .idx files
  const packs = [...plan.packs].sort((a, b) => Number(b.name.endsWith('.pack')) - Number(a.name.endsWith('.pack')));
  for (const p of packs) steps.push({ kind: 'write', rel: `.git/objects/pack/${p.name}`, bytes: p.read });
  if (plan.shallow) steps.push({ kind: 'write', rel: '.git/shallow', bytes: plan.shallow });
  const tracking = plan.branch ? `refs/remotes/origin/${plan.branch}` : plan.tag ? `refs/tags/${plan.tag}` : null;
  let packed = '# pack-refs with: peeled fully-peeled sorted \n';
  if (tracking) packed += `${plan.fetched} ${tracking}\n${plan.fetched === plan.commit ? '' : `^${plan.commit}\n`}`;
  steps.push(
    text('packed-refs', packed),
    text('config', configText(plan, abilities)),
    text('description', REPO_DESCRIPTION),
    text('info/exclude', REPO_EXCLUDE),
  );
  if (plan.branch) {
    steps.push(text(`refs/heads/${plan.branch}`, `${plan.commit}\n`));
    if (plan.remoteDefault) steps.push(text('refs/remotes/origin/HEAD', `ref: refs/remotes/origin/${plan.branch}\n`));
  }
  steps.push({ kind: 'write', rel: '.git/index', bytes: serializeIndex(rows) });
  // HEAD last: until it is there, no git takes the folder for a repository
  steps.push(text('HEAD', plan.branch ? `ref: refs/heads/${plan.branch}\n` : `${plan.commit}\n`));
  await writer.apply(steps, { gitCommand: true, allOrNothing: true, noteForSnapshot: false });
}

/**
 * The lstat of each path just written (absent: not there), a folder at a time where the backend
 * lists folders with their entries' stats: one resolution of the folder for all its files, where
 * an lstat each resolved the whole path again.
 */
async function statsOf({ fs, toAbs }: GitContext, paths: readonly string[]): Promise<Map<string, FsStat>> {
  const out = new Map<string, FsStat>();
  const byFolder = new Map<string, string[]>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const folder = slash < 0 ? '' : path.slice(0, slash);
    const list = byFolder.get(folder);
    if (list) list.push(path);
    else byFolder.set(folder, [path]);
  }
  await parallel([...byFolder], PARALLEL, async ([folder, files]) => {
    const listed = fs.readdirStats ? await fs.readdirStats(toAbs(folder)).catch(() => null) : null;
    const byName = new Map(listed?.map((e) => [e.name, e.stat]));
    for (const path of files) {
      const name = path.slice(path.lastIndexOf('/') + 1);
      const seen = byName.get(name);
      // not listed (no such fast path, or a stat the listing could not take): the file's own lstat
      const found = listed === null || seen === null ? await fs.lstat(toAbs(path)).catch(() => null) : seen;
      if (found) out.set(path, found);
    }
  });
  return out;
}
