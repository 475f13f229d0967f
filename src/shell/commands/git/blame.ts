import * as git from 'isomorphic-git';
import type { CommandContext } from '../../context.js';
import { formatDate } from './identity.js';
import { GitFatal, openRepo, unknownOption, type Repo } from './repo.js';
import { editScript, splitText } from './unified.js';

/** The options blame parses (one spelling each): the table the flags test reads. */
export const GIT_BLAME_FLAGS = ['-L'];

type CommitObject = Awaited<ReturnType<typeof git.readCommit>>['commit'];

async function linesAt(repo: Repo, commit: string, path: string): Promise<string[] | null> {
  const found = await git.readBlob({ ...repo.base, oid: commit, filepath: path }).catch(() => null);
  return found ? splitText(new TextDecoder().decode(found.blob)).lines : null;
}

/**
 * Who last changed each line of a file at a commit: follow first parents, carrying each line
 * still unexplained back through the diffs, until a commit added it or the root is reached.
 */
async function attribute(repo: Repo, start: string, path: string) {
  const lines = (await linesAt(repo, start, path)) ?? [];
  const owner: Array<{ oid: string; commit: CommitObject; boundary: boolean } | null> = lines.map(() => null);
  // position of each final line in the current commit's version (-1 once attributed)
  let at = lines.map((_, i) => i);
  let oid = start;
  let current = lines;
  for (;;) {
    repo.ctx.shell.checkTime();
    const { commit } = await git.readCommit({ ...repo.base, oid });
    const parent = commit.parent[0];
    const before = parent ? await linesAt(repo, parent, path) : null;
    if (!parent || !before) {
      at.forEach((pos, i) => {
        if (pos >= 0) owner[i] = { oid, commit, boundary: !parent };
      });
      break;
    }
    const map = new Map<number, number>();
    for (const e of editScript(before, current)) if (e.op === ' ') map.set(e.b, e.a);
    at = at.map((pos, i) => {
      if (pos < 0) return pos;
      const back = map.get(pos);
      if (back === undefined) {
        owner[i] = { oid, commit, boundary: false };
        return -1;
      }
      return back;
    });
    if (at.every((p) => p < 0)) break;
    oid = parent;
    current = before;
  }
  return { lines, owner };
}

/** `git blame [-L A,B] [REV] [--] FILE`, in git's default form. */
export async function blame(ctx: CommandContext, args: string[]): Promise<number> {
  let range: [number, number] | null = null;
  const words: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const spec = a === '-L' ? args[++i] : a.startsWith('-L') ? a.slice(2) : undefined;
    if (spec !== undefined) {
      const m = /^(\d+),(\+?)(\d+)?$/.exec(spec);
      if (!m) throw new GitFatal(`-L '${spec}': only the forms A,B and A,+N are supported by this shell's git`, 129);
      const from = Number(m[1]);
      range = [from, m[3] === undefined ? Infinity : m[2] ? from + Number(m[3]) - 1 : Number(m[3])];
    } else if (a === '--') continue;
    else if (a.startsWith('-')) unknownOption('blame', a);
    else words.push(a);
  }
  const repo = await openRepo(ctx);
  const file = words.pop();
  if (!file) throw new GitFatal('blame: a file is needed', 129);
  const rev = words[0] ? await repo.resolve(words[0]) : await repo.head();
  if (!rev) throw new GitFatal('no such ref: HEAD');
  const path = repo.toRepoPath(file);
  if (!(await linesAt(repo, rev, path))) throw new GitFatal(`no such path '${path}' in ${words[0] ?? 'HEAD'}`);
  const { lines, owner } = await attribute(repo, rev, path);
  const [from, to] = range ?? [1, lines.length];
  if (from < 1 || from > lines.length) throw new GitFatal(`file ${path} has only ${lines.length} lines`);
  const last = Math.min(to, lines.length);
  const shown = owner.slice(from - 1, last);
  const nameWidth = Math.max(...shown.map((o) => o!.commit.author.name.length));
  const numberWidth = String(last).length;
  for (let i = from - 1; i < last; i++) {
    const o = owner[i]!;
    const a = o.commit.author;
    const hash = o.boundary ? `^${o.oid.slice(0, 7)}` : o.oid.slice(0, 8);
    const date = formatDate(a.timestamp, a.timezoneOffset, 'iso');
    ctx.out(`${hash} (${a.name.padEnd(nameWidth)} ${date} ${String(i + 1).padStart(numberWidth)}) ${lines[i]}\n`);
  }
  return 0;
}
