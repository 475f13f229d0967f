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
 * How many commits each side has that the other lacks, as git counts them (the commits reachable
 * from one and not from the other): both histories are painted down together, newest commit
 * first, each commit with the sides that reach it, until every commit still to visit is reached
 * by both; what is left below is common to both and not walked. A merge commit's other parent is
 * painted like any other, and a commit that gains a side after it was visited (commit times out of
 * order) passes it on to the ancestors visited below it at once. A missing parent (a shallow
 * clone's edge) ends that line.
 */
async function distance(repo: Repo, ours: string, theirs: string): Promise<{ ahead: number; behind: number }> {
  if (ours === theirs) return { ahead: 0, behind: 0 };
  const OURS = 1;
  const THEIRS = 2;
  const flags = new Map<string, number>();
  // null: a commit the repository lacks (a shallow clone's edge), which neither side has
  const read = new Map<string, { parents: string[]; time: number } | null>();
  const load = async (oid: string) => {
    let c = read.get(oid);
    if (c === undefined) {
      const got = await git.readCommit({ ...repo.base, oid }).catch(() => null);
      c = got ? { parents: got.commit.parent, time: got.commit.committer.timestamp } : null;
      read.set(oid, c);
    }
    return c;
  };
  // newest last, so the next to visit is popped
  const queue: Array<{ oid: string; time: number }> = [];
  const queued = new Set<string>();
  const visited = new Set<string>();
  // a commit gains `side`: queued to be visited, or (visited already) passed on to its parents now
  const paint = async (start: string, side: number) => {
    const stack = [start];
    while (stack.length > 0) {
      const oid = stack.pop()!;
      const was = flags.get(oid) ?? 0;
      if ((was | side) === was) continue;
      const commit = await load(oid);
      if (!commit) continue;
      flags.set(oid, was | side);
      if (visited.has(oid)) {
        stack.push(...commit.parents);
        continue;
      }
      if (queued.has(oid)) continue;
      const { time } = commit;
      let at = queue.length;
      while (at > 0 && queue[at - 1]!.time > time) at--;
      queue.splice(at, 0, { oid, time });
      queued.add(oid);
    }
  };
  await paint(ours, OURS);
  await paint(theirs, THEIRS);
  while (queue.some((q) => flags.get(q.oid) !== (OURS | THEIRS))) {
    const { oid } = queue.pop()!;
    queued.delete(oid);
    visited.add(oid);
    const side = flags.get(oid)!;
    for (const parent of (await load(oid))!.parents) await paint(parent, side);
  }
  let ahead = 0;
  let behind = 0;
  for (const f of flags.values()) {
    if (f === OURS) ahead++;
    else if (f === THEIRS) behind++;
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
