import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { commitPairs } from './commit.js';
import { diffOption, printPairs, type DiffFormat } from './diff.js';
import { formatDate } from './identity.js';
import { GitFatal, openRepo, unknownOption, type Repo } from './repo.js';
import { under } from './stage.js';

/** The options log and show parse (one spelling each): the table the flags test reads. */
export const GIT_LOG_FLAGS = [
  '--oneline',
  '--pretty=oneline',
  '--format',
  '-n',
  '--reverse',
  '--all',
  '-s',
  '--stat',
  '--name-only',
  '--name-status',
  '-p',
  '-U',
  '--pretty=medium',
  '--no-decorate',
];

/** The options show parses: log's, less --all. */
export const GIT_SHOW_FLAGS = GIT_LOG_FLAGS.filter((o) => o !== '--all');

type CommitObject = Awaited<ReturnType<typeof git.readCommit>>['commit'];
interface Entry {
  oid: string;
  commit: CommitObject;
}

/** Commits reachable from `start` and not from `hide`, newest first by committer date (git's default order). */
async function walk(repo: Repo, start: string[], hide: string[]): Promise<AsyncGenerator<Entry>> {
  const shallow = await repo.shallow();
  const read = async (oid: string) => {
    const { commit } = await git.readCommit({ ...repo.base, oid });
    // a shallow clone's boundary commits are roots, as git shows them
    return { oid, commit: shallow.has(oid) ? { ...commit, parent: [] } : commit };
  };
  const hidden = new Set<string>();
  const stack = [...hide];
  while (stack.length > 0) {
    const oid = stack.pop()!;
    if (hidden.has(oid)) continue;
    hidden.add(oid);
    stack.push(...(await read(oid)).commit.parent);
  }
  const seen = new Set<string>(start);
  const queue: Entry[] = await Promise.all([...seen].filter((o) => !hidden.has(o)).map(read));
  return (async function* () {
    while (queue.length > 0) {
      queue.sort((a, b) => b.commit.committer.timestamp - a.commit.committer.timestamp);
      const next = queue.shift()!;
      yield next;
      for (const p of next.commit.parent) {
        if (seen.has(p) || hidden.has(p)) continue;
        seen.add(p);
        queue.push(await read(p));
      }
    }
  })();
}

/** One commit in `--format`: the placeholders agents use. */
function expand(format: string, e: Entry): string {
  const c = e.commit;
  const [subject = '', ...rest] = c.message.replace(/\n$/, '').split('\n');
  const body = rest.join('\n').replace(/^\n/, '');
  const table: Record<string, string> = {
    H: e.oid,
    h: e.oid.slice(0, 7),
    T: c.tree,
    t: c.tree.slice(0, 7),
    P: c.parent.join(' '),
    p: c.parent.map((p) => p.slice(0, 7)).join(' '),
    an: c.author.name,
    ae: c.author.email,
    ad: formatDate(c.author.timestamp, c.author.timezoneOffset),
    ai: formatDate(c.author.timestamp, c.author.timezoneOffset, 'iso'),
    as: formatDate(c.author.timestamp, c.author.timezoneOffset, 'short'),
    at: String(c.author.timestamp),
    cn: c.committer.name,
    ce: c.committer.email,
    cd: formatDate(c.committer.timestamp, c.committer.timezoneOffset),
    ci: formatDate(c.committer.timestamp, c.committer.timezoneOffset, 'iso'),
    cs: formatDate(c.committer.timestamp, c.committer.timezoneOffset, 'short'),
    ct: String(c.committer.timestamp),
    s: subject,
    b: body ? `${body}\n` : '',
    B: c.message,
    n: '\n',
    '%': '%',
  };
  return format.replace(/%(an|ae|ad|ai|as|at|cn|ce|cd|ci|cs|ct|[HhTtPpsbBn%])/g, (_m, key: string) => table[key]!);
}

function medium(e: Entry): string {
  const c = e.commit;
  let out = `commit ${e.oid}\n`;
  if (c.parent.length > 1) out += `Merge: ${c.parent.map((p) => p.slice(0, 7)).join(' ')}\n`;
  out += `Author: ${c.author.name} <${c.author.email}>\nDate:   ${formatDate(c.author.timestamp, c.author.timezoneOffset)}\n\n`;
  for (const line of c.message.replace(/\n$/, '').split('\n')) out += `    ${line}\n`;
  return out;
}

interface LogOptions {
  format: 'medium' | 'oneline' | string;
  diff: DiffFormat;
  max: number;
  revs: string[];
  paths: string[];
  reverse: boolean;
  all?: boolean;
}

function parseLog(sub: string, args: string[], defaultPatch: boolean): LogOptions {
  const o: LogOptions = {
    format: 'medium',
    diff: { patch: false, stat: false, nameOnly: false, nameStatus: false, context: 3 },
    max: Infinity,
    revs: [],
    paths: [],
    reverse: false,
  };
  let inPaths = false;
  let noPatch = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (inPaths) o.paths.push(a);
    else if (a === '--') inPaths = true;
    else if (a === '--oneline' || a === '--pretty=oneline') o.format = a === '--oneline' ? 'oneline' : '%H %s';
    else if (a === '--pretty=medium' || a === '--pretty' || a === '--no-decorate' || a === '--decorate=no') continue;
    else if (a.startsWith('--format=') || a.startsWith('--pretty=format:') || a.startsWith('--pretty=tformat:'))
      o.format = a.slice(a.indexOf(a.startsWith('--format=') ? '=' : ':') + 1);
    else if (a === '-n') o.max = Number(args[++i]);
    else if (/^-n\d+$/.test(a) || /^-\d+$/.test(a)) o.max = Number(a.replace(/^-n?/, ''));
    else if (a.startsWith('--max-count=')) o.max = Number(a.slice(12));
    else if (a === '--reverse') o.reverse = true;
    else if (a === '--all') o.all = true;
    else if (a === '-s' || a === '--no-patch') noPatch = true;
    else if (diffOption(a, o.diff)) continue;
    else if (a.startsWith('-')) unknownOption(sub, a);
    else o.revs.push(a);
  }
  if (defaultPatch && !o.diff.stat && !o.diff.nameOnly && !o.diff.nameStatus) o.diff.patch = true;
  if (noPatch) o.diff = { ...o.diff, patch: false, stat: false, nameOnly: false, nameStatus: false };
  return o;
}

async function printEntries(ctx: CommandContext, repo: Repo, entries: Entry[], o: LogOptions): Promise<void> {
  const wantsDiff = o.diff.patch || o.diff.stat || o.diff.nameOnly || o.diff.nameStatus;
  for (const [n, e] of entries.entries()) {
    if (o.format === 'medium') ctx.out(`${n > 0 ? '\n' : ''}${medium(e)}`);
    else if (o.format === 'oneline') ctx.out(`${e.oid.slice(0, 7)} ${e.commit.message.split('\n')[0]}\n`);
    else ctx.out(`${expand(o.format, e)}\n`);
    if (!wantsDiff) continue;
    const pairs = await commitPairs(repo, e.commit.parent[0] ?? null, e.oid);
    if (pairs.length === 0) continue;
    if (o.format !== 'oneline') ctx.out('\n');
    await printPairs(ctx, pairs, o.diff);
  }
}

/** `git log [--oneline] [-n N] [--stat] [-p] [--format=...] [REV | A..B] [-- PATH...]`. */
export async function log(ctx: CommandContext, args: string[]): Promise<number> {
  const o = parseLog('log', args, false);
  const repo = await openRepo(ctx);
  const start: string[] = [];
  const hide: string[] = [];
  for (const r of o.revs) {
    if (r.includes('..')) {
      const [a, b] = r.split('..');
      hide.push(await repo.resolve(a || 'HEAD'));
      start.push(await repo.resolve(b || 'HEAD'));
    } else if (r.startsWith('^')) hide.push(await repo.resolve(r.slice(1)));
    else
      start.push(
        await repo
          .resolve(r)
          .catch(() =>
            Promise.reject(
              new GitFatal(`ambiguous argument '${r}': unknown revision or path not in the working tree.`),
            ),
          ),
      );
  }
  if (o.all) {
    for (const name of await git.listBranches({ ...repo.base })) start.push(await repo.resolve(name));
    for (const name of await git.listTags({ ...repo.base })) start.push(await repo.resolve(name));
    const stashTop = (await repo.stashList())[0];
    if (stashTop) start.push(stashTop);
  }
  if (start.length === 0) {
    const head = await repo.head();
    if (!head) {
      const branch = await repo.branch();
      throw new GitFatal(`your current branch '${branch}' does not have any commits yet`);
    }
    start.push(head);
  }
  const specs = o.paths.map((p) => repo.toRepoPath(p));
  const wanted = (p: string) => specs.some((s) => under(p, s));
  const entries: Entry[] = [];
  for await (const e of await walk(repo, start, hide)) {
    if (entries.length >= o.max) break;
    ctx.shell.checkTime();
    if (specs.length > 0 && (await commitPairs(repo, e.commit.parent[0] ?? null, e.oid, wanted)).length === 0) continue;
    entries.push(e);
  }
  if (o.reverse) entries.reverse();
  await printEntries(ctx, repo, entries, o);
  return 0;
}

/** `git show [REV]` (a commit and its patch) or `git show REV:PATH` (a file's bytes at a commit). */
export async function show(ctx: CommandContext, args: string[]): Promise<number> {
  // --all (every ref's tip) is log's here; show takes the revisions it is given
  if (args.includes('--all')) unknownOption('show', '--all');
  const o = parseLog('show', args, true);
  const repo = await openRepo(ctx);
  const revs = o.revs.length > 0 ? o.revs : ['HEAD'];
  const entries: Entry[] = [];
  for (const r of revs) {
    const colon = r.indexOf(':');
    if (colon >= 0) {
      const oid = await repo.resolve(r.slice(0, colon) || 'HEAD');
      const path = r.slice(colon + 1).replace(/^\.\//, repo.prefix ? `${repo.prefix}/` : '');
      const found = await git.readBlob({ ...repo.base, oid, filepath: path }).catch(() => null);
      if (!found) throw new GitFatal(`path '${path}' does not exist in '${r.slice(0, colon) || 'HEAD'}'`);
      ctx.out(new TextDecoder().decode(found.blob));
      continue;
    }
    const oid = await repo.resolve(r);
    const { commit } = await git.readCommit({ ...repo.base, oid });
    entries.push({ oid, commit: (await repo.shallow()).has(oid) ? { ...commit, parent: [] } : commit });
  }
  await printEntries(ctx, repo, entries.slice(0, o.max), o);
  return 0;
}
