import * as git from 'isomorphic-git';
import type { Repo } from './repo.js';

/** A branch's upstream as its config names it (`origin/main`), and how far apart the two are. */
export interface Tracking {
  name: string;
  /** false when the upstream ref is not there (removed on the remote, or never fetched) */
  present: boolean;
  ahead: number;
  behind: number;
}

/**
 * The commits reachable from `from` without passing `base` (all of them when `base` is null),
 * whether `base` was met, and whether a merge (two parents) was among them; missing parents end the walk.
 */
async function walkTo(
  repo: Repo,
  from: string,
  base: string | null,
): Promise<{ seen: Set<string>; met: boolean; merges: boolean }> {
  const seen = new Set<string>();
  const stack = [from];
  let met = false;
  let merges = false;
  while (stack.length > 0) {
    const oid = stack.pop()!;
    if (oid === base) met = true;
    if (oid === base || seen.has(oid)) continue;
    const read = await git.readCommit({ ...repo.base, oid }).catch(() => null);
    if (!read) continue;
    seen.add(oid);
    if (read.commit.parent.length > 1) merges = true;
    stack.push(...read.commit.parent);
  }
  return { seen, met, merges };
}

const without = (a: Set<string>, b: Set<string>) => {
  let n = 0;
  for (const oid of a) if (!b.has(oid)) n++;
  return n;
};

/**
 * How many commits each side has that the other lacks, as git counts them: the commits reachable
 * from one and not from the other. A history with a merge (a pull's merge commit) can reach below
 * the merge base by its other parent, so there both histories are walked whole and compared.
 */
async function distance(repo: Repo, ours: string, theirs: string): Promise<{ ahead: number; behind: number }> {
  if (ours === theirs) return { ahead: 0, behind: 0 };
  // the common case first, new commits on top of the upstream: a walk that stops at it, which a
  // shallow clone's missing parents do not break (isomorphic-git's merge base needs every parent)
  const ahead = await walkTo(repo, ours, theirs);
  if (ahead.met && !ahead.merges) return { ahead: ahead.seen.size, behind: 0 };
  if (!ahead.merges) {
    const bases = await git.findMergeBase({ ...repo.base, oids: [ours, theirs] }).catch(() => [] as string[]);
    const base = (bases[0] as string | undefined) ?? null;
    const [a, b] = await Promise.all([walkTo(repo, ours, base), walkTo(repo, theirs, base)]);
    if (!a.merges && !b.merges) return { ahead: a.seen.size, behind: b.seen.size };
  }
  const [a, b] = await Promise.all([walkTo(repo, ours, null), walkTo(repo, theirs, null)]);
  return { ahead: without(a.seen, b.seen), behind: without(b.seen, a.seen) };
}

/** The branch's upstream (`branch.<name>.remote` and `.merge`), or null when it has none. */
export async function tracking(repo: Repo, branch: string, head: string | null): Promise<Tracking | null> {
  const remote = await repo.config(`branch.${branch}.remote`);
  const merge = await repo.config(`branch.${branch}.merge`);
  if (!remote || !merge?.startsWith('refs/heads/')) return null;
  const short = merge.slice('refs/heads/'.length);
  const ref = remote === '.' ? merge : `refs/remotes/${remote}/${short}`;
  const name = remote === '.' ? short : `${remote}/${short}`;
  const upstream = await git.resolveRef({ ...repo.base, ref }).catch(() => null);
  if (!upstream || !head) return { name, present: upstream !== null, ahead: 0, behind: 0 };
  return { name, present: true, ...(await distance(repo, head, upstream)) };
}

const commits = (n: number) => `${n} commit${n === 1 ? '' : 's'}`;

/** The lines long `git status` prints under "On branch", then a blank line. */
export function trackingLines(t: Tracking): string {
  const to = `'${t.name}'`;
  if (!t.present)
    return `Your branch is based on ${to}, but the upstream is gone.\n  (use "git branch --unset-upstream" to fixup)\n\n`;
  if (t.ahead && t.behind)
    return (
      `Your branch and ${to} have diverged,\nand have ${t.ahead} and ${t.behind} different commits each, respectively.\n` +
      '  (use "git pull" if you want to integrate the remote branch with yours)\n\n'
    );
  if (t.ahead)
    return `Your branch is ahead of ${to} by ${commits(t.ahead)}.\n  (use "git push" to publish your local commits)\n\n`;
  if (t.behind)
    return `Your branch is behind ${to} by ${commits(t.behind)}, and can be fast-forwarded.\n  (use "git pull" to update your local branch)\n\n`;
  return `Your branch is up to date with ${to}.\n\n`;
}

/** What `status -sb` adds after the branch: `...origin/main [ahead 1, behind 2]`. */
export function trackingShort(t: Tracking): string {
  if (!t.present) return `...${t.name} [gone]`;
  const parts = [t.ahead ? `ahead ${t.ahead}` : '', t.behind ? `behind ${t.behind}` : ''].filter(Boolean);
  return `...${t.name}${parts.length ? ` [${parts.join(', ')}]` : ''}`;
}
