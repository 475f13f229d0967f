import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { readIndex } from './index-file.js';
import { GitFatal, openRepo, unknownOption, type GitFile, type Repo } from './repo.js';
import { under } from './stage.js';
import { workChanges } from './worktree.js';

/** The options checkout, switch and restore parse (one spelling each): the table the flags test reads. */
export const GIT_CHECKOUT_FLAGS = {
  checkout: ['-b', '-B', '-q'],
  switch: ['-c', '-C', '--detach', '-q'],
  restore: ['--staged', '--worktree', '--source'],
};

/** Write `files` (path -> blob) into the working tree, making folders as needed. */
async function writeWork(repo: Repo, files: Array<[string, GitFile]>): Promise<void> {
  const sfs = repo.ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  for (const [path, f] of files) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${top}/${parts.slice(0, i).join('/')}`;
      if (!(await sfs.stat(d))) await sfs.mkdir(d);
    }
    await sfs.writeFile(`${top}/${path}`, await repo.blob(f.oid));
  }
}

/** The files below the pathspecs in `source`; git's error for a pathspec that names none. */
function pick(source: Map<string, GitFile>, specs: string[], shown: string[]): Array<[string, GitFile]> {
  const out: Array<[string, GitFile]> = [];
  specs.forEach((s, i) => {
    const hits = [...source].filter(([p]) => under(p, s));
    if (hits.length === 0) throw new GitFatal(`pathspec '${shown[i]}' did not match any file(s) known to git`, 1);
    out.push(...hits);
  });
  return out;
}

/** Files from the index (or a commit, also staged) over their working copies. */
async function restorePaths(repo: Repo, specs: string[], rev: string | null, staged: boolean, worktree: boolean) {
  const paths = specs.map((s) => repo.toRepoPath(s));
  const oid = rev ? await repo.resolve(rev) : null;
  if (staged) {
    const base = oid ?? (await repo.head());
    const tree = await repo.treeFiles(base);
    const index = await readIndex(repo);
    const union = new Map([...index, ...tree]);
    for (const [path] of pick(union, paths, specs))
      await git.resetIndex({ ...repo.base, filepath: path, ...(base ? { ref: base } : {}) });
  }
  if (!worktree) return 0;
  const source = oid ? await repo.treeFiles(oid) : await readIndex(repo);
  const files = pick(source, paths, specs);
  await writeWork(repo, files);
  if (oid && !staged) for (const [path] of files) await git.add({ ...repo.base, filepath: path, force: true });
  return files.length;
}

/** Move HEAD to a branch (or a commit, detached), carrying local changes as git does. */
async function switchTo(
  ctx: CommandContext,
  repo: Repo,
  target: string,
  create: boolean | 'reset',
  detach: boolean,
  start?: string,
) {
  const current = await repo.branch();
  if (create) {
    const exists = await git.resolveRef({ ...repo.base, ref: `refs/heads/${target}` }).then(
      () => true,
      () => false,
    );
    if (exists && create !== 'reset') throw new GitFatal(`a branch named '${target}' already exists`);
    const oid = start ? await repo.resolve(start) : await repo.head();
    if (oid) await git.writeRef({ ...repo.base, ref: `refs/heads/${target}`, value: oid, force: true });
    if (start && oid && oid !== (await repo.head())) await git.checkout({ ...repo.base, ref: target });
    else await git.writeRef({ ...repo.base, ref: 'HEAD', value: `refs/heads/${target}`, symbolic: true, force: true });
    ctx.err(exists ? `Switched to and reset branch '${target}'\n` : `Switched to a new branch '${target}'\n`);
    return;
  }
  const isBranch = await git.resolveRef({ ...repo.base, ref: `refs/heads/${target}` }).then(
    () => true,
    () => false,
  );
  if (isBranch && !detach) {
    if (target === current) {
      ctx.err(`Already on '${target}'\n`);
      return;
    }
    await git.checkout({ ...repo.base, ref: target }).catch((e: Error) => {
      throw new GitFatal(`checkout of '${target}' failed: ${e.message.replace(/\s+$/, '')}`, 1);
    });
    await showLocalChanges(ctx, repo);
    ctx.err(`Switched to branch '${target}'\n`);
    return;
  }
  const oid = await repo.resolve(target);
  await git.checkout({ ...repo.base, ref: oid, noUpdateHead: true });
  await git.writeRef({ ...repo.base, ref: 'HEAD', value: oid, force: true });
  await showLocalChanges(ctx, repo);
  const subject = (await git.readCommit({ ...repo.base, oid })).commit.message.split('\n')[0];
  ctx.err(`HEAD is now at ${repo.short(oid)} ${subject}\n`);
}

async function showLocalChanges(ctx: CommandContext, repo: Repo) {
  for (const c of await workChanges(repo, await readIndex(repo))) ctx.out(`${c.now ? 'M' : 'D'}\t${c.path}\n`);
}

/** `git checkout BRANCH`, `-b NEW [START]`, `REV`, `[REV] -- PATH...`. */
export async function checkout(outer: CommandContext, args: string[]): Promise<number> {
  const dash = args.indexOf('--');
  const before = dash >= 0 ? args.slice(0, dash) : args;
  const paths = dash >= 0 ? args.slice(dash + 1) : [];
  let create: string | null = null;
  let reset = false;
  let quiet = false;
  const words: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const a = before[i]!;
    if (a === '-b' || a === '-B') {
      create = before[++i] ?? '';
      reset = a === '-B';
    } else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) unknownOption('checkout', a);
    else words.push(a);
  }
  const repo = await openRepo(outer);
  const ctx = quiet ? { ...outer, err: () => {} } : outer;
  if (create !== null) {
    await switchTo(ctx, repo, create, reset ? 'reset' : true, false, words[0]);
    return 0;
  }
  if (
    dash < 0 &&
    words.length === 1 &&
    (await repo.resolve(words[0]!).then(
      () => true,
      () => false,
    ))
  ) {
    await switchTo(ctx, repo, words[0]!, false, false);
    return 0;
  }
  const rev = dash >= 0 && words.length > 0 ? words[0]! : null;
  const specs = dash >= 0 ? paths : words;
  const n = await restorePaths(repo, specs, rev, false, true);
  // git counts the paths only when no `--` said they were paths
  if (dash < 0 && !quiet)
    ctx.err(`Updated ${n} path${n === 1 ? '' : 's'} from ${rev ? repo.short(await repo.resolve(rev)) : 'the index'}\n`);
  return 0;
}

/** `git switch BRANCH`, `-c NEW [START]`, `--detach REV`. */
export async function switchBranch(ctx: CommandContext, args: string[]): Promise<number> {
  let create: string | null = null;
  let detach = false;
  let reset = false;
  let quiet = false;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C' || a === '--create' || a === '--force-create') {
      create = args[++i] ?? '';
      reset = a === '-C' || a === '--force-create';
    } else if (a === '--detach' || a === '-d') detach = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a.startsWith('-')) unknownOption('switch', a);
    else words.push(a);
  }
  const repo = await openRepo(ctx);
  const told = quiet ? { ...ctx, err: () => {} } : ctx;
  const target = words[0] ?? '';
  if (create === null && !detach && !(await repo.isBranch(target)))
    throw new GitFatal(
      `a branch is expected, got commit '${target}'\nhint: If you want to detach HEAD at the commit, try again with the --detach option.`,
      128,
    );
  if (create !== null) await switchTo(told, repo, create, reset ? 'reset' : true, false, words[0]);
  else await switchTo(told, repo, words[0] ?? '', false, detach);
  return 0;
}

/** `git restore [--staged] [--worktree] [--source=REV] PATH...`. */
export async function restore(ctx: CommandContext, args: string[]): Promise<number> {
  let staged = false;
  let worktree = false;
  let source: string | null = null;
  const specs: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--staged' || a === '-S') staged = true;
    else if (a === '--worktree' || a === '-W') worktree = true;
    else if (a === '-SW' || a === '-WS') staged = worktree = true;
    else if (a === '-s' || a === '--source') source = args[++i] ?? '';
    else if (a.startsWith('--source=')) source = a.slice(9);
    else if (a === '--') continue;
    else if (a.startsWith('-')) unknownOption('restore', a);
    else specs.push(a);
  }
  if (specs.length === 0) throw new GitFatal('you must specify path(s) to restore');
  if (!staged) worktree = true;
  const repo = await openRepo(ctx);
  await restorePaths(repo, specs, source, staged, worktree);
  return 0;
}
