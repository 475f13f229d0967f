import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { readIndex } from './index-file.js';
import { GitFatal, openRepo, unknownOption, type Repo } from './repo.js';
import { under } from './stage.js';
import { workChanges } from './worktree.js';

/** The options reset parses (one spelling each): the table the flags test reads. */
export const GIT_RESET_FLAGS = ['--soft', '--mixed', '--hard', '-q'];

/** Point the current branch (or a detached HEAD) at `oid`. */
export async function moveHead(repo: Repo, oid: string): Promise<void> {
  const branch = await repo.branch();
  await git.writeRef({ ...repo.base, ref: branch ? `refs/heads/${branch}` : 'HEAD', value: oid, force: true });
}

/** Make the index match a commit's tree for every path either holds (below `specs` when given). */
export async function resetIndexTo(repo: Repo, oid: string | null, specs: string[] = []): Promise<void> {
  const tree = await repo.treeFiles(oid);
  const index = await readIndex(repo);
  for (const path of new Set([...index.keys(), ...tree.keys()])) {
    if (specs.length > 0 && !specs.some((s) => under(path, s))) continue;
    const a = index.get(path);
    const b = tree.get(path);
    if (a && b && a.oid === b.oid && a.mode === b.mode) continue;
    if (!b) await git.remove({ ...repo.base, filepath: path });
    else await git.resetIndex({ ...repo.base, filepath: path, ref: oid! });
  }
}

/** Make the working tree and index match a commit, removing tracked files it lacks. */
export async function hardReset(repo: Repo, oid: string): Promise<void> {
  const before = await readIndex(repo);
  const tree = await repo.treeFiles(oid);
  const sfs = repo.ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  for (const path of before.keys()) {
    if (!tree.has(path) && (await sfs.fullStat(`${top}/${path}`))) await sfs.remove(`${top}/${path}`);
  }
  await git.checkout({ ...repo.base, ref: oid, force: true, noUpdateHead: true });
}

async function unstagedAfter(ctx: CommandContext, repo: Repo): Promise<void> {
  const changes = await workChanges(repo, await readIndex(repo));
  if (changes.length === 0) return;
  ctx.out('Unstaged changes after reset:\n');
  for (const c of changes) ctx.out(`${c.now ? 'M' : 'D'}\t${c.path}\n`);
}

/** `git reset [--soft | --mixed | --hard] [REV]` and `git reset [REV] -- PATH...`. */
export async function reset(ctx: CommandContext, args: string[]): Promise<number> {
  let mode = 'mixed' as 'soft' | 'mixed' | 'hard';
  let quiet = false;
  const words: string[] = [];
  let paths: string[] | null = null;
  for (const a of args) {
    if (paths) paths.push(a);
    else if (a === '--') paths = [];
    else if (a === '--soft' || a === '--mixed' || a === '--hard') mode = a.slice(2) as typeof mode;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) unknownOption('reset', a);
    else words.push(a);
  }
  const repo = await openRepo(ctx);
  if (
    paths === null &&
    words.length > 0 &&
    !(await repo.resolve(words[0]!).then(
      () => true,
      () => false,
    ))
  ) {
    paths = words.splice(0);
  }
  if (paths === null && words.length > 1) paths = words.splice(1);
  const head = await repo.head();
  if (paths && paths.length > 0) {
    if (mode !== 'mixed') throw new GitFatal(`Cannot do ${mode as string} reset with paths.`);
    const oid = words[0] ? await repo.resolve(words[0]) : head;
    await resetIndexTo(
      repo,
      oid,
      paths.map((p) => repo.toRepoPath(p)),
    );
    if (!quiet) await unstagedAfter(ctx, repo);
    return 0;
  }
  const oid = words[0] ? await repo.resolve(words[0]) : head;
  if (!oid) throw new GitFatal("ambiguous argument 'HEAD': unknown revision or path not in the working tree.");
  if (mode === 'hard') await hardReset(repo, oid);
  else if (mode === 'mixed') await resetIndexTo(repo, oid);
  await moveHead(repo, oid);
  if (quiet) return 0;
  if (mode === 'hard') {
    const subject = (await git.readCommit({ ...repo.base, oid })).commit.message.split('\n')[0];
    ctx.out(`HEAD is now at ${repo.short(oid)} ${subject}\n`);
  } else if (mode === 'mixed') await unstagedAfter(ctx, repo);
  return 0;
}
