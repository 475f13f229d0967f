import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { findRenames, summaryLine, type FilePair } from './diff-render.js';
import { formatDate, identity } from './identity.js';
import { readIndex } from './index-file.js';
import { GitFatal, openRepo, unknownOption, type Repo } from './repo.js';
import { stagePaths } from './stage.js';
import { pairsOf, status } from './status.js';
import { countChanges } from './unified.js';

/** The options commit parses (one spelling each): the table the flags test reads. */
export const GIT_COMMIT_FLAGS = ['-m', '-a', '-q', '--allow-empty', '--amend', '--no-verify', '--no-edit'];

/** git's `whitespace` cleanup of a `-m` message: trailing blanks off, runs of empty lines made one. */
export function cleanMessage(text: string): string {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  const out: string[] = [];
  for (const l of lines) if (l !== '' || (out.length > 0 && out[out.length - 1] !== '')) out.push(l);
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.length === 0 ? '' : `${out.join('\n')}\n`;
}

/** Pairs between two commits (null: the empty tree), with blob loaders, renames found. */
export async function commitPairs(repo: Repo, from: string | null, to: string | null, wanted = (_p: string) => true) {
  const pairs = pairsOf(await repo.treeFiles(from), await repo.treeFiles(to), wanted);
  for (const p of pairs) {
    if (p.from) p.from.load = () => repo.blob(p.from!.oid);
    if (p.to) p.to.load = () => repo.blob(p.to!.oid);
  }
  return findRenames(pairs);
}

/** The lines `commit` and `merge` print under the subject: totals, then created, deleted and renamed files. */
export async function changeSummary(pairs: FilePair[]): Promise<string> {
  let added = 0;
  let removed = 0;
  let tail = '';
  const decoder = new TextDecoder();
  for (const p of pairs) {
    const before = p.from ? await p.from.load() : new Uint8Array();
    const after = p.to ? await p.to.load() : new Uint8Array();
    if (!before.subarray(0, 8000).includes(0) && !after.subarray(0, 8000).includes(0)) {
      const c = countChanges(decoder.decode(before), decoder.decode(after));
      added += c.added;
      removed += c.removed;
    }
    if (!p.from) tail += ` create mode ${p.to!.mode} ${p.to!.path}\n`;
    else if (!p.to) tail += ` delete mode ${p.from.mode} ${p.from.path}\n`;
    else if (p.from.path !== p.to.path) tail += ` rename ${p.from.path} => ${p.to.path} (100%)\n`;
    else if (p.from.mode !== p.to.mode) tail += ` mode change ${p.from.mode} => ${p.to.mode} ${p.to.path}\n`;
  }
  return summaryLine(pairs.length, added, removed) + tail;
}

/** `git commit -m MSG [-a] [--allow-empty] [-q]`. */
export async function commit(ctx: CommandContext, args: string[]): Promise<number> {
  const messages: string[] = [];
  let all = false;
  let allowEmpty = false;
  let quiet = false;
  let amend = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m' || a === '--message') messages.push(args[++i] ?? '');
    else if (a.startsWith('--message=')) messages.push(a.slice(10));
    else if (/^-[aqm]+$/.test(a) && a.length > 2) {
      if (a.includes('a')) all = true;
      if (a.includes('q')) quiet = true;
      if (a.endsWith('m')) messages.push(args[++i] ?? '');
      else if (a.includes('m')) messages.push(a.slice(a.indexOf('m') + 1));
    } else if (a.startsWith('-m')) messages.push(a.slice(2));
    else if (a === '-a' || a === '--all') all = true;
    else if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--allow-empty') allowEmpty = true;
    else if (a === '--amend') amend = true;
    else if (a === '--no-verify' || a === '-n' || a === '--no-edit') continue;
    else unknownOption('commit', a);
  }
  const repo = await openRepo(ctx);
  const head = await repo.head();
  let message = cleanMessage(messages.join('\n\n'));
  if (amend && messages.length === 0 && head)
    message = (await git.readCommit({ ...repo.base, oid: head })).commit.message;
  if (messages.length === 0 && !amend)
    throw new GitFatal("commit: a message is needed (-m MSG): this shell's git opens no editor");
  if (message === '') {
    ctx.err('Aborting commit due to empty commit message.\n');
    return 1;
  }
  if (all) await stagePaths(repo, [''], false);
  const parentOid =
    amend && head ? ((await git.readCommit({ ...repo.base, oid: head })).commit.parent[0] ?? null) : head;
  const index = await readIndex(repo);
  const staged = pairsOf(await repo.treeFiles(head), index, () => true);
  if (staged.length === 0 && !allowEmpty && !amend) {
    await status(ctx, []);
    return 1;
  }
  // one clock reading for both, as git takes: two could fall either side of a second
  const now = new Date();
  const author = await identity(repo, 'AUTHOR', now);
  const committer = await identity(repo, 'COMMITTER', now);
  const oid = await git.commit({
    ...repo.base,
    message,
    author,
    committer,
    ...(amend ? { parent: parentOid ? [parentOid] : [] } : {}),
  });
  if (quiet) return 0;
  const branch = await repo.branch();
  const where = branch ?? 'detached HEAD';
  const root = parentOid ? '' : ' (root-commit)';
  ctx.out(`[${where}${root} ${repo.short(oid)}] ${message.split('\n')[0]}\n`);
  if (author.name !== committer.name || author.email !== committer.email)
    ctx.out(` Author: ${author.name} <${author.email}>\n`);
  if (author.timestamp !== committer.timestamp || author.timezoneOffset !== committer.timezoneOffset)
    ctx.out(` Date: ${formatDate(author.timestamp, author.timezoneOffset)}\n`);
  ctx.out(await changeSummary(await commitPairs(repo, parentOid, oid)));
  return 0;
}
