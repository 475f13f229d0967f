import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { identity, zone, type Person } from './identity.js';
import { readIndex } from './index-file.js';
import { GitFatal, openRepo, unknownOption, type GitFile, type Repo } from './repo.js';
import { hardReset } from './reset.js';
import { status } from './status.js';
import { workChanges } from './worktree.js';

/** The options stash parses (one spelling each): the table the flags test reads. */
export const GIT_STASH_FLAGS = ['-q'];

/** Write a tree for a set of files (path -> blob), folders and all; its id. */
async function writeTreeOf(repo: Repo, files: Map<string, GitFile>): Promise<string> {
  const write = async (prefix: string): Promise<string> => {
    const entries: Array<{ mode: string; path: string; oid: string; type: 'blob' | 'tree' }> = [];
    const dirs = new Set<string>();
    for (const [path, f] of files) {
      if (!path.startsWith(prefix)) continue;
      const rest = path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash < 0) entries.push({ mode: f.mode, path: rest, oid: f.oid, type: 'blob' });
      else dirs.add(rest.slice(0, slash));
    }
    for (const d of dirs) entries.push({ mode: '040000', path: d, oid: await write(`${prefix}${d}/`), type: 'tree' });
    return git.writeTree({ ...repo.base, tree: entries });
  };
  return write('');
}

/** A commit written byte for byte as git's stash writes it (the WIP commit's message has no final newline). */
async function rawCommit(
  repo: Repo,
  tree: string,
  parents: string[],
  author: Person,
  committer: Person,
  message: string,
) {
  const who = (p: Person) => `${p.name} <${p.email}> ${p.timestamp} ${zone(p.timezoneOffset)}`;
  const text =
    `tree ${tree}\n${parents.map((p) => `parent ${p}\n`).join('')}` +
    `author ${who(author)}\ncommitter ${who(committer)}\n\n${message}`;
  return git.writeObject({ ...repo.base, type: 'commit', format: 'content', object: new TextEncoder().encode(text) });
}

const reflogLine = (old: string, next: string, who: Person, message: string) =>
  `${old} ${next} ${who.name} <${who.email}> ${who.timestamp} ${zone(who.timezoneOffset)}\t${message}\n`;

async function push(ctx: CommandContext, repo: Repo): Promise<number> {
  const head = await repo.head();
  if (!head) throw new GitFatal('You do not have the initial commit yet');
  const index = await readIndex(repo);
  const changes = await workChanges(repo, index);
  const headFiles = await repo.treeFiles(head);
  const staged = [...index].some(([p, e]) => headFiles.get(p)?.oid !== e.oid) || headFiles.size !== index.size;
  if (changes.length === 0 && !staged) {
    ctx.out('No local changes to save\n');
    return 0;
  }
  const branch = (await repo.branch()) ?? '(no branch)';
  const subject = (await git.readCommit({ ...repo.base, oid: head })).commit.message.split('\n')[0];
  const what = `${branch}: ${repo.short(head)} ${subject}`;
  // one clock reading for both, as git takes: two could fall either side of a second
  const now = new Date();
  const author = await identity(repo, 'AUTHOR', now);
  const committer = await identity(repo, 'COMMITTER', now);
  const indexTree = await writeTreeOf(repo, index);
  const indexCommit = await rawCommit(repo, indexTree, [head], author, committer, `index on ${what}\n`);
  const work = new Map<string, GitFile>(index);
  for (const c of changes) {
    if (!c.now) work.delete(c.path);
    else work.set(c.path, { oid: await git.writeBlob({ ...repo.base, blob: c.now.data }), mode: c.now.mode });
  }
  const workTree = await writeTreeOf(repo, work);
  const stashCommit = await rawCommit(repo, workTree, [head, indexCommit], author, committer, `WIP on ${what}`);
  const old = (await repo.stashList())[0] ?? '0'.repeat(40);
  const sfs = ctx.shell.state.fs;
  const log = await repo.readText('logs/refs/stash').catch(() => '');
  for (const d of ['logs', 'logs/refs'])
    if (!(await sfs.stat(`${repo.gitdir}/${d}`))) await sfs.mkdir(`${repo.gitdir}/${d}`, 'git');
  const line = reflogLine(old, stashCommit, committer, `WIP on ${what}`);
  await sfs.writeFile(`${repo.gitdir}/logs/refs/stash`, new TextEncoder().encode(log + line), 'git');
  await git.writeRef({ ...repo.base, ref: 'refs/stash', value: stashCommit, force: true });
  await hardReset(repo, head);
  ctx.out(`Saved working directory and index state WIP on ${what}\n`);
  return 0;
}

async function drop(repo: Repo, n: number): Promise<string> {
  const lines = (await repo.readText('logs/refs/stash').catch(() => '')).split('\n').filter(Boolean);
  const at = lines.length - 1 - n;
  if (at < 0) throw new GitFatal(`stash@{${n}} is not a valid reference`, 1);
  const oid = lines[at]!.split(' ')[1]!;
  lines.splice(at, 1);
  const sfs = repo.ctx.shell.state.fs;
  if (lines.length === 0) {
    await sfs.remove(`${repo.gitdir}/logs/refs/stash`, 'git');
    await sfs.remove(`${repo.gitdir}/refs/stash`, 'git');
  } else {
    await sfs.writeFile(
      `${repo.gitdir}/logs/refs/stash`,
      new TextEncoder().encode(lines.map((l) => `${l}\n`).join('')),
      'git',
    );
    await git.writeRef({
      ...repo.base,
      ref: 'refs/stash',
      value: lines[lines.length - 1]!.split(' ')[1]!,
      force: true,
    });
  }
  return oid;
}

async function apply(ctx: CommandContext, repo: Repo, n: number): Promise<void> {
  const oid = (await repo.stashList())[n];
  if (!oid) throw new GitFatal(`stash@{${n}} is not a valid reference`, 1);
  const { commit } = await git.readCommit({ ...repo.base, oid });
  const base = await repo.treeFiles(commit.parent[0]!);
  const saved = await repo.treeFiles(oid);
  const index = await readIndex(repo);
  const sfs = ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  for (const [path, f] of saved) {
    if (base.get(path)?.oid === f.oid) continue;
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${top}/${parts.slice(0, i).join('/')}`;
      if (!(await sfs.stat(d))) await sfs.mkdir(d);
    }
    await sfs.writeFile(`${top}/${path}`, await repo.blob(f.oid));
    if (!base.has(path) && !index.has(path)) await git.add({ ...repo.base, filepath: path, force: true });
  }
  for (const path of base.keys()) {
    if (!saved.has(path) && (await sfs.fullStat(`${top}/${path}`))) await sfs.remove(`${top}/${path}`);
  }
}

/** `git stash` / `stash push`, `pop`, `apply`, `drop`, `list`. */
export async function stash(outer: CommandContext, args: string[]): Promise<number> {
  const [sub = 'push', ...rest] = args;
  const quiet = rest.includes('-q') || rest.includes('--quiet');
  const ctx = quiet ? { ...outer, out: () => {}, err: () => {} } : outer;
  const repo = await openRepo(ctx);
  const ref = rest.find((a) => !a.startsWith('-'));
  const n = ref ? Number(/^(?:stash@\{)?(\d+)\}?$/.exec(ref)?.[1] ?? Number.NaN) : 0;
  for (const a of rest) if (a.startsWith('-') && a !== '-q' && a !== '--quiet') unknownOption(`stash ${sub}`, a);
  if (Number.isNaN(n)) throw new GitFatal(`'${ref}' is not a stash-like commit`, 1);
  if (sub === 'push' || sub === 'save') return push(ctx, repo);
  if (sub === 'list') {
    const log = (await repo.readText('logs/refs/stash').catch(() => '')).split('\n').filter(Boolean).reverse();
    log.forEach((line, i) => ctx.out(`stash@{${i}}: ${line.slice(line.indexOf('\t') + 1)}\n`));
    return 0;
  }
  if (sub === 'apply' || sub === 'pop') {
    await apply(ctx, repo, n);
    await status(ctx, []);
    if (sub === 'pop') ctx.out(`Dropped refs/stash@{${n}} (${await drop(repo, n)})\n`);
    return 0;
  }
  if (sub === 'drop') {
    ctx.out(`Dropped refs/stash@{${n}} (${await drop(repo, n)})\n`);
    return 0;
  }
  throw new GitFatal(`stash '${sub}' is not supported by this shell's git (it has push, pop, apply, drop, list)`, 129);
}
