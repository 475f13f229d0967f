import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { readIndex, type IndexEntry } from './index-file.js';
import { GitFatal, openRepo, unknownOption, type Repo } from './repo.js';
import { ignoredPart, untracked, workChanges } from './worktree.js';

/** The options add, rm and mv parse (one spelling each): the table the flags test reads. */
export const GIT_STAGE_FLAGS = { add: ['-A', '-u', '-f'], rm: ['--cached', '-r', '-q', '-f'], mv: [] as string[] };

/** Whether `path` is `spec` or below it ('' is everything). */
export const under = (path: string, spec: string) => spec === '' || path === spec || path.startsWith(`${spec}/`);

/**
 * Stage what changed below the pathspecs: new and changed files added, missing ones removed; new
 * files that .gitignore excludes only with `force`. Returns the excluded paths a pathspec named
 * (what git refuses to add, naming each), the rest being staged all the same.
 */
export async function stagePaths(repo: Repo, specs: string[], withNew: boolean, force = false): Promise<string[]> {
  const index = await readIndex(repo);
  const wanted = (p: string) => specs.some((s) => under(p, s));
  const changes = await workChanges(repo, index, wanted);
  const fresh = withNew ? (await untracked(repo, index, false, !force)).filter(wanted) : [];
  const matched = new Set<string>();
  for (const s of specs) {
    if (s === '' || index.has(s) || [...index.keys()].some((p) => under(p, s)) || fresh.some((p) => under(p, s)))
      matched.add(s);
  }
  const refused = new Set<string>();
  for (const s of specs) {
    if (matched.has(s)) continue;
    const stat = await repo.ctx.shell.state.fs.fullStat(`${repo.dir === '/' ? '' : repo.dir}/${s}`);
    const excluded = stat && withNew ? await ignoredPart(repo, s, stat.type === 'dir') : null;
    if (excluded !== null) refused.add(excluded);
    else if (!(await repo.workFile(s))) throw new GitFatal(`pathspec '${s}' did not match any files`);
  }
  const removed = changes.filter((c) => !c.now).map((c) => c.path);
  const added = [...changes.filter((c) => c.now).map((c) => c.path), ...fresh];
  for (const filepath of removed) await git.remove({ ...repo.base, filepath });
  // already judged by .gitignore as git judges it (untracked): isomorphic-git's own check ignores case
  // and lets an outer folder's rule win over a nested re-include, and tracked files are never ignored
  if (added.length > 0) await git.add({ ...repo.base, filepath: added, force: true });
  return [...refused];
}

/** `git add PATH...`, `-A`/`--all`, `-u`/`--update`. */
export async function add(ctx: CommandContext, args: string[]): Promise<number> {
  const specs: string[] = [];
  let all = false;
  let update = false;
  let force = false;
  for (const a of args) {
    if (a === '-A' || a === '--all') all = true;
    else if (a === '-u' || a === '--update') update = true;
    else if (a === '-f' || a === '--force') force = true;
    else if (a === '--') continue;
    else if (a.startsWith('-') && a !== '-') unknownOption('add', a);
    else specs.push(a);
  }
  const repo = await openRepo(ctx);
  if (specs.length === 0 && !all && !update) {
    ctx.err("Nothing specified, nothing added.\nhint: Maybe you wanted to say 'git add .'?\n");
    return 0;
  }
  const paths = specs.length > 0 ? specs.map((s) => repo.toRepoPath(s)) : [''];
  const refused = await stagePaths(repo, paths, !update, force);
  if (refused.length === 0) return 0;
  ctx.err(
    `The following paths are ignored by one of your .gitignore files:\n${refused.join('\n')}\n` +
      'hint: Use -f if you really want to add them.\n',
  );
  return 1;
}

/** `git rm [--cached] [-r] [-q] [-f] PATH...`. */
export async function rm(ctx: CommandContext, args: string[]): Promise<number> {
  let cached = false;
  let recursive = false;
  let quiet = false;
  let force = false;
  const specs: string[] = [];
  for (const a of args) {
    if (a === '--cached') cached = true;
    else if (a === '-r') recursive = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '-f' || a === '--force' || a === '-rf' || a === '-fr') {
      force = true;
      recursive ||= a !== '-f' && a !== '--force';
    } else if (a === '--') continue;
    else if (a.startsWith('-')) unknownOption('rm', a);
    else specs.push(a);
  }
  const repo = await openRepo(ctx);
  const index = await readIndex(repo);
  const doomed: string[] = [];
  for (const spec of specs.map((s) => repo.toRepoPath(s))) {
    const hits = [...index.keys()].filter((p) => under(p, spec));
    if (hits.length === 0) throw new GitFatal(`pathspec '${spec}' did not match any files`);
    if (!index.has(spec) && !recursive) throw new GitFatal(`not removing '${spec}' recursively without -r`);
    doomed.push(...hits);
  }
  if (!force) {
    const refusal = await localModifications(repo, index, doomed, cached);
    if (refusal) {
      ctx.err(refusal);
      return 1;
    }
  }
  const sfs = ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  for (const path of doomed.sort()) {
    if (!quiet) ctx.out(`rm '${path}'\n`);
    await git.remove({ ...repo.base, filepath: path });
    if (!cached && (await sfs.fullStat(`${top}/${path}`))) await sfs.remove(`${top}/${path}`);
  }
  if (!cached) {
    // git removes the folders a removal leaves empty
    for (const path of doomed) {
      for (let d = path.slice(0, path.lastIndexOf('/')); d; d = d.slice(0, Math.max(d.lastIndexOf('/'), 0))) {
        const names = await sfs.readdir(`${top}/${d}`).catch(() => null);
        if (names === null || names.length > 0) break;
        await sfs.remove(`${top}/${d}`);
      }
    }
  }
  return 0;
}

/**
 * What git's rm refuses without -f, in its words, or null: a file whose working copy differs
 * from the index, or whose index differs from HEAD, would lose that content (with --cached, only
 * one differing from both). Files gone from the work tree are not checked, as in git.
 */
async function localModifications(
  repo: Repo,
  index: Map<string, IndexEntry>,
  paths: string[],
  cached: boolean,
): Promise<string | null> {
  const set = new Set(paths);
  const changes = await workChanges(repo, index, (p) => set.has(p));
  const local = new Set(changes.filter((c) => c.now !== null).map((c) => c.path));
  const gone = new Set(changes.filter((c) => c.now === null).map((c) => c.path));
  const head = await repo.treeFiles(await repo.head());
  const both: string[] = [];
  const staged: string[] = [];
  const modified: string[] = [];
  for (const path of [...set].sort()) {
    if (gone.has(path)) continue;
    const entry = index.get(path)!;
    const inHead = head.get(path);
    const stagedChange = !inHead || inHead.oid !== entry.oid || inHead.mode !== entry.mode;
    if (local.has(path) && stagedChange) both.push(path);
    else if (!cached) {
      if (stagedChange) staged.push(path);
      if (local.has(path)) modified.push(path);
    }
  }
  const block = (files: string[], one: string, many: string, hint: string) =>
    files.length === 0
      ? ''
      : `error: ${files.length === 1 ? one : many}${files.map((f) => `\n    ${f}`).join('')}${hint}\n`;
  const out =
    block(
      both,
      'the following file has staged content different from both the\nfile and the HEAD:',
      'the following files have staged content different from both the\nfile and the HEAD:',
      '\n(use -f to force removal)',
    ) +
    block(
      staged,
      'the following file has changes staged in the index:',
      'the following files have changes staged in the index:',
      '\n(use --cached to keep the file, or -f to force removal)',
    ) +
    block(
      modified,
      'the following file has local modifications:',
      'the following files have local modifications:',
      '\n(use --cached to keep the file, or -f to force removal)',
    );
  return out || null;
}

/** `git mv SOURCE DEST` (a file, into a folder or to a new name). */
export async function mv(ctx: CommandContext, args: string[]): Promise<number> {
  const specs = args.filter((a) => a !== '--');
  for (const a of specs) if (a.startsWith('-')) unknownOption('mv', a);
  if (specs.length !== 2) throw new GitFatal('usage: git mv <source> <destination> (one source in this shell)', 129);
  const repo = await openRepo(ctx);
  const index = await readIndex(repo);
  const from = repo.toRepoPath(specs[0]!);
  let to = repo.toRepoPath(specs[1]!);
  const sfs = ctx.shell.state.fs;
  const top = repo.dir === '/' ? '' : repo.dir;
  if ((await sfs.stat(`${top}/${to}`))?.type === 'dir') to = `${to}/${from.split('/').pop()}`;
  const moved = [...index.keys()].filter((p) => under(p, from));
  if (moved.length === 0) throw new GitFatal(`not under version control, source=${from}, destination=${to}`);
  if (await sfs.stat(`${top}/${to}`)) throw new GitFatal(`destination exists, source=${from}, destination=${to}`);
  for (const path of moved) {
    const target = to + path.slice(from.length);
    const file = await repo.workFile(path);
    if (!file) throw new GitFatal(`bad source, source=${path}, destination=${target}`);
    const parts = target.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = `${top}/${parts.slice(0, i).join('/')}`;
      if (!(await sfs.stat(d))) await sfs.mkdir(d);
    }
    await sfs.writeFile(`${top}/${target}`, file.data);
    await sfs.remove(`${top}/${path}`);
    await git.remove({ ...repo.base, filepath: path });
    await git.add({ ...repo.base, filepath: target, force: true });
  }
  if (moved.length > 1 || from !== moved[0]) await sfs.remove(`${top}/${from}`).catch(() => undefined);
  return 0;
}
