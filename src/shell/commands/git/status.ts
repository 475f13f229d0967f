import { findRenames, type FilePair } from './diff-render.js';
import { readIndex, type IndexEntry } from './index-file.js';
import { openRepo, unknownOption, type GitFile, type Repo } from './repo.js';
import { tracking, trackingLines, trackingShort } from './tracking.js';
import { untracked, workChanges, type FolderListings, type WorkChange } from './worktree.js';
import type { CommandContext } from '../../context.js';

/** The options status parses (one spelling each): the table the flags test reads. */
export const GIT_STATUS_FLAGS = ['-s', '--porcelain', '-b', '-uno', '-u', '-uall', '--long'];

/** What `status` reports: staged pairs (HEAD to index), unstaged changes, untracked paths. */
export interface StatusData {
  head: string | null;
  staged: FilePair[];
  unstaged: WorkChange[];
  untracked: string[];
  index: Map<string, IndexEntry>;
}

const side = (path: string, f: GitFile) => ({ path, oid: f.oid, mode: f.mode, load: async () => new Uint8Array() });

/** Compare two sets of files by path: what was added, removed or changed between them. */
export function pairsOf(
  from: Map<string, GitFile>,
  to: Map<string, GitFile>,
  wanted: (p: string) => boolean,
): FilePair[] {
  const out: FilePair[] = [];
  for (const [path, a] of from) {
    if (!wanted(path)) continue;
    const b = to.get(path);
    if (!b) out.push({ from: side(path, a) });
    else if (a.oid !== b.oid || a.mode !== b.mode) out.push({ from: side(path, a), to: side(path, b) });
  }
  for (const [path, b] of to) if (wanted(path) && !from.has(path)) out.push({ to: side(path, b) });
  return out;
}

/**
 * The staged pairs of the last status, by the index entries and HEAD's files they came from (both
 * the same objects while unchanged, see readIndex and treeFiles): comparing 10,000 paths again
 * when neither moved was a twentieth of a status.
 */
const lastStaged = new WeakMap<object, { tree: object; staged: FilePair[] }>();

/** `untracked`: 'no', folders holding no tracked file shown once (`normal`), or every file (`all`). */
export async function collectStatus(
  repo: Repo,
  untrackedFiles: 'no' | 'normal' | 'all' = 'normal',
): Promise<StatusData> {
  const head = await repo.head();
  const index = await readIndex(repo, true);
  const tree = await repo.treeFiles(head, true);
  const known = lastStaged.get(index);
  const staged = known?.tree === tree ? known.staged : findRenames(pairsOf(tree, index, () => true));
  lastStaged.set(index, { tree, staged });
  const folders: FolderListings = new Map();
  const unstaged = await workChanges(repo, index, () => true, folders);
  const others =
    untrackedFiles === 'no' ? [] : await untracked(repo, index, untrackedFiles === 'normal', true, folders);
  return { head, staged, unstaged, untracked: others, index };
}

const stagedLetter = (p: FilePair) => (!p.from ? 'A' : !p.to ? 'D' : p.from.path !== p.to.path ? 'R' : 'M');

/** `git status`: the long form, or `-s`/`--short` and `--porcelain`. */
export async function status(ctx: CommandContext, args: string[]): Promise<number> {
  let short = false;
  let porcelain = false;
  let branchLine = false;
  let untrackedFiles: 'no' | 'normal' | 'all' = 'normal';
  // `-sb` is `-s -b`, as git reads bundled short options
  for (const a of args.flatMap((x) => (/^-[sb]{2}$/.test(x) ? ['-s', '-b'] : [x]))) {
    if (a === '-s' || a === '--short') short = true;
    else if (a === '--porcelain' || a === '--porcelain=v1') porcelain = true;
    else if (a === '-b' || a === '--branch') branchLine = true;
    else if (a === '-uno' || a === '--untracked-files=no') untrackedFiles = 'no';
    else if (a === '-unormal' || a === '--untracked-files=normal') untrackedFiles = 'normal';
    // git's -u alone means all, as --untracked-files does without a value
    else if (a === '-uall' || a === '-u' || a === '--untracked-files=all' || a === '--untracked-files')
      untrackedFiles = 'all';
    else if (a === '--long') continue;
    else unknownOption('status', a);
  }
  const repo = await openRepo(ctx);
  const data = await collectStatus(repo, untrackedFiles);
  const branch = await repo.branch();
  const upstream = branch && (branchLine || !(short || porcelain)) ? await tracking(repo, branch, data.head) : null;
  const show = porcelain ? (p: string) => p : (p: string) => repo.display(p);
  if (short || porcelain) {
    if (branchLine)
      ctx.out(
        `## ${data.head ? '' : 'No commits yet on '}${branch ?? 'HEAD (no branch)'}${upstream ? trackingShort(upstream) : ''}\n`,
      );
    const rows = new Map<string, string>();
    for (const p of data.staged) {
      const path = (p.to ?? p.from)!.path;
      const name = p.from && p.to && p.from.path !== path ? `${show(p.from.path)} -> ${show(path)}` : show(path);
      rows.set(path, `${stagedLetter(p)} ${name}`);
    }
    for (const c of data.unstaged) {
      const row = rows.get(c.path);
      const y = c.now ? 'M' : 'D';
      rows.set(c.path, row ? `${row[0]}${y}${row.slice(2)}` : ` ${y} ${show(c.path)}`);
    }
    const lines = [...rows].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, r]) => r);
    for (const u of data.untracked) lines.push(`?? ${show(u)}`);
    ctx.out(lines.map((l) => `${l.slice(0, 2)} ${l.slice(2).trimStart()}\n`).join(''));
    return 0;
  }
  ctx.out(branch ? `On branch ${branch}\n` : `HEAD detached at ${repo.short(data.head ?? '')}\n`);
  if (upstream && data.head) ctx.out(trackingLines(upstream));
  if (!data.head) ctx.out('\nNo commits yet\n\n');
  const entry = (label: string, path: string) => `\t${`${label}:`.padEnd(12)}${path}\n`;
  if (data.staged.length > 0) {
    ctx.out(
      `Changes to be committed:\n  (use "git ${data.head ? 'restore --staged' : 'rm --cached'} <file>..." to unstage)\n`,
    );
    for (const p of data.staged) {
      const path = (p.to ?? p.from)!.path;
      if (!p.from) ctx.out(entry('new file', show(path)));
      else if (!p.to) ctx.out(entry('deleted', show(path)));
      else if (p.from.path !== path) ctx.out(entry('renamed', `${show(p.from.path)} -> ${show(path)}`));
      else ctx.out(entry('modified', show(path)));
    }
    ctx.out('\n');
  }
  if (data.unstaged.length > 0) {
    const removed = data.unstaged.some((c) => !c.now);
    ctx.out(
      `Changes not staged for commit:\n  (use "git add${removed ? '/rm' : ''} <file>..." to update what will be committed)\n` +
        '  (use "git restore <file>..." to discard changes in working directory)\n',
    );
    for (const c of data.unstaged) ctx.out(entry(c.now ? 'modified' : 'deleted', show(c.path)));
    ctx.out('\n');
  }
  if (data.untracked.length > 0) {
    ctx.out('Untracked files:\n  (use "git add <file>..." to include in what will be committed)\n');
    for (const u of data.untracked) ctx.out(`\t${show(u)}\n`);
    ctx.out('\n');
  }
  if (data.staged.length > 0) return 0;
  if (data.unstaged.length > 0) ctx.out('no changes added to commit (use "git add" and/or "git commit -a")\n');
  else if (data.untracked.length > 0)
    ctx.out('nothing added to commit but untracked files present (use "git add" to track)\n');
  else if (!data.head) ctx.out('nothing to commit (create/copy files and use "git add" to track)\n');
  else ctx.out('nothing to commit, working tree clean\n');
  return 0;
}
