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

/** How many commits are reachable from `from` without passing `base`, and whether it was met; missing parents end the walk. */
async function walkTo(repo: Repo, from: string, base: string | null): Promise<{ count: number; met: boolean }> {
  const seen = new Set<string>();
  const stack = [from];
  let met = false;
  while (stack.length > 0) {
    const oid = stack.pop()!;
    if (oid === base) met = true;
    if (oid === base || seen.has(oid)) continue;
    const read = await git.readCommit({ ...repo.base, oid }).catch(() => null);
    if (!read) continue;
    seen.add(oid);
    stack.push(...read.commit.parent);
  }
  return { count: seen.size, met };
}

/**
 * How many commits each side has that the other lacks, counted down to their merge base (found
 * by isomorphic-git's breadth-first walk, which commit dates cannot mislead).
 */
async function distance(repo: Repo, ours: string, theirs: string): Promise<{ ahead: number; behind: number }> {
  if (ours === theirs) return { ahead: 0, behind: 0 };
  // the common case first, new commits on top of the upstream: a walk that stops at it, which a
  // shallow clone's missing parents do not break (isomorphic-git's merge base needs every parent)
  const ahead = await walkTo(repo, ours, theirs);
  if (ahead.met) return { ahead: ahead.count, behind: 0 };
  const bases = await git.findMergeBase({ ...repo.base, oids: [ours, theirs] }).catch(() => [] as string[]);
  const base = (bases[0] as string | undefined) ?? null;
  return { ahead: (await walkTo(repo, ours, base)).count, behind: (await walkTo(repo, theirs, base)).count };
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
