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

/** How many commits each side has that the other lacks, walked newest first as git does; a shallow clone's missing parents end the walk. */
async function distance(repo: Repo, ours: string, theirs: string): Promise<{ ahead: number; behind: number }> {
  if (ours === theirs) return { ahead: 0, behind: 0 };
  const marks = new Map<string, number>([
    [ours, 1],
    [theirs, 2],
  ]);
  const when = new Map<string, number>();
  const missing = new Set<string>();
  const parents = async (oid: string): Promise<string[]> => {
    const read = await git.readCommit({ ...repo.base, oid }).catch(() => null);
    if (!read) missing.add(oid);
    when.set(oid, read?.commit.committer.timestamp ?? 0);
    return read?.commit.parent ?? [];
  };
  const queue = [ours, theirs];
  for (const oid of queue) await parents(oid);
  // stop once every commit still to walk is reached from both sides: what lies below is shared
  while (queue.some((o) => marks.get(o) !== 3)) {
    queue.sort((a, b) => when.get(b)! - when.get(a)!);
    const oid = queue.shift()!;
    const mark = marks.get(oid)!;
    for (const p of await parents(oid)) {
      const was = marks.get(p) ?? 0;
      if ((was | mark) === was) continue;
      marks.set(p, was | mark);
      if (!queue.includes(p)) queue.push(p);
    }
  }
  let ahead = 0;
  let behind = 0;
  for (const [oid, m] of marks) {
    if (missing.has(oid)) continue;
    if (m === 1) ahead++;
    else if (m === 2) behind++;
  }
  return { ahead, behind };
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
