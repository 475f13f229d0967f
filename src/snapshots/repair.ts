import { gitFsClient } from '../fs/git-client.js';
import type { WorkspaceFs } from '../fs/types.js';
import { BRANCH, readBranch } from './branch.js';
import { readEntryHeader } from './delta.js';
import { readCommit, readTyped, type GitAccess } from './object-reader.js';
import { readTreeEntries } from './objects.js';
import { PackIndex } from './pack-index.js';

/** What a look at the shadow history found, and what a repair did. */
export interface HistoryReport {
  /** the history reads from the branch to its oldest kept commit */
  healthy: boolean;
  /** no shadow repository exists yet */
  absent: boolean;
  /** what is wrong, for a person */
  damage: string | null;
  /** commits readable from the branch (after a repair: from the commit it reset to) */
  snapshots: number;
  /** the commit the branch was reset to, when a repair ran and found one */
  repairedTo: string | null;
}

const MAX_CHAIN = 100_000;

/**
 * Check the shadow history: the branch must parse and every commit back to a shallow cut (or
 * the root) must read, with every tree and blob of every one of them (each read once).
 */
export async function checkHistory(fs: WorkspaceFs, gitdir: string): Promise<HistoryReport> {
  const branch = await readBranch(fs, gitdir);
  if (branch.kind === 'absent') return { healthy: true, absent: true, damage: null, snapshots: 0, repairedTo: null };
  if (branch.kind === 'damaged')
    return { healthy: false, absent: false, damage: branch.why, snapshots: 0, repairedTo: null };
  const chain = await readChain(fs, gitdir, branch.oid);
  return chain.broken
    ? { healthy: false, absent: false, damage: chain.broken, snapshots: chain.length, repairedTo: null }
    : { healthy: true, absent: false, damage: null, snapshots: chain.length, repairedTo: null };
}

/**
 * Reset a damaged branch to the newest intact commit: first from the reflog, newest entry
 * first, then from every commit in the object store, loose or packed (a new repository's first
 * commit is in a pack), newest first. An intact
 * commit reads back to the root or the shallow cut, its tree included. A healthy history is left
 * as it is; when nothing intact is found the branch is not touched.
 */
export async function repairHistory(fs: WorkspaceFs, gitdir: string): Promise<HistoryReport> {
  const before = await checkHistory(fs, gitdir);
  if (before.healthy) return before;
  for (const oid of [...(await reflogCandidates(fs, gitdir)), ...(await storedCommits(fs, gitdir))]) {
    const chain = await readChain(fs, gitdir, oid);
    if (chain.broken) continue;
    await fs.mkdir(`${gitdir}/refs/heads`, { recursive: true }).catch(() => {});
    await fs.writeFile(`${gitdir}/${BRANCH}`, new TextEncoder().encode(`${oid}\n`));
    return { ...before, snapshots: chain.length, repairedTo: oid };
  }
  return before;
}

async function readChain(
  fs: WorkspaceFs,
  gitdir: string,
  head: string,
): Promise<{ length: number; broken: string | null }> {
  const access: GitAccess = { fs: gitFsClient(fs), gitdir, cache: {} };
  const shallow = await fs.readFile(`${gitdir}/shallow`).then(
    (t) => new Set(new TextDecoder().decode(t).split('\n').filter(Boolean)),
    () => new Set<string>(),
  );
  let length = 0;
  // objects already read whole (a tree with everything below it): shared ones are read once
  const read = new Set<string>();
  for (let oid: string | null = head; oid && length < MAX_CHAIN; ) {
    const at: string = oid;
    let parent: string | null;
    let tree: string;
    try {
      const commit = await readCommit(access, at);
      parent = commit.parent[0] ?? null;
      tree = commit.tree;
    } catch {
      return {
        length,
        broken:
          length === 0
            ? `the branch names commit ${at.slice(0, 12)}, which is missing or corrupt`
            : `commit ${at.slice(0, 12)}, ${length} back from the newest, is missing or corrupt`,
      };
    }
    const bad = await firstBadObject(access, tree, read);
    if (bad) {
      const where =
        length === 0 ? 'the newest snapshot' : `snapshot ${at.slice(0, 12)}, ${length} back from the newest,`;
      return {
        length,
        broken: `${where} needs object ${bad.oid.slice(0, 12)} (${bad.path || 'its tree'}), which is missing or corrupt`,
      };
    }
    length++;
    oid = shallow.has(at) ? null : parent;
  }
  return { length, broken: null };
}

/** Commits the branch pointed at, newest first, from git's reflog when one was kept. */
async function reflogCandidates(fs: WorkspaceFs, gitdir: string): Promise<string[]> {
  const text = await fs.readFile(`${gitdir}/logs/${BRANCH}`).then(
    (b) => new TextDecoder().decode(b),
    () => '',
  );
  const found: string[] = [];
  for (const line of text.split('\n').reverse()) {
    const m = /^[0-9a-f]{40} ([0-9a-f]{40}) /.exec(line);
    if (m && !found.includes(m[1]!)) found.push(m[1]!);
  }
  return found;
}

/** Every commit, loose or whole in a pack, newest (furthest from the root) first. */
async function storedCommits(fs: WorkspaceFs, gitdir: string): Promise<string[]> {
  const access: GitAccess = { fs: gitFsClient(fs), gitdir, cache: {} };
  const commits = new Map<string, { time: number; parents: string[] }>();
  const candidates: string[] = [];
  const fanOut = await fs.readdir(`${gitdir}/objects`).catch(() => [] as string[]);
  for (const dir of fanOut) {
    if (!/^[0-9a-f]{2}$/.test(dir)) continue;
    for (const rest of await fs.readdir(`${gitdir}/objects/${dir}`).catch(() => [] as string[]))
      if (/^[0-9a-f]{38}$/.test(rest)) candidates.push(dir + rest);
  }
  candidates.push(...(await packedCommits(fs, gitdir)));
  for (const oid of candidates) {
    try {
      const commit = await readCommit(access, oid);
      commits.set(oid, { time: commit.committer.timestamp, parents: commit.parent });
    } catch {
      // a blob, a tree, or a damaged object: not a candidate
    }
  }
  // Seconds-resolution times tie within one history, so the order is by distance from the root first.
  const depth = new Map<string, number>();
  const depthOf = (oid: string): number => {
    let n = 0;
    const path: string[] = [];
    for (let at: string | undefined = oid; at && commits.has(at) && !depth.has(at); at = commits.get(at)!.parents[0])
      path.push(at);
    const last = path.length ? commits.get(path[path.length - 1]!)!.parents[0] : oid;
    n = last !== undefined && depth.has(last) ? depth.get(last)! : 0;
    for (const at of path.reverse()) depth.set(at, ++n);
    return depth.get(oid) ?? n;
  };
  return [...commits.entries()]
    .map(([oid, c]) => ({ oid, time: c.time, depth: depthOf(oid) }))
    .sort((a, b) => b.depth - a.depth || b.time - a.time)
    .map((c) => c.oid);
}

/**
 * The commits stored whole in the repository's packs, found by their entries' type (nothing is
 * inflated here). A commit stored as a delta is not among them: Sandpit's own packs hold no deltas.
 */
async function packedCommits(fs: WorkspaceFs, gitdir: string): Promise<string[]> {
  const dir = `${gitdir}/objects/pack`;
  const found: string[] = [];
  for (const name of await fs.readdir(dir).catch(() => [] as string[])) {
    if (!/^pack-[0-9a-f]+\.idx$/.test(name)) continue;
    try {
      const index = new PackIndex(await fs.readFile(`${dir}/${name}`), name);
      const pack = await fs.readFile(`${dir}/${name.slice(0, -4)}.pack`);
      for (const { oid, offset } of index.entries())
        if (readEntryHeader(pack, offset).kind === COMMIT_ENTRY) found.push(oid);
    } catch {
      // a damaged or half-written pack offers no candidates; readChain checks whatever is chosen
    }
  }
  return found;
}

/** A pack entry's type number for a commit. */
const COMMIT_ENTRY = 1;

/**
 * Read a tree and everything below it, each object checked against its id (the object reader
 * hashes what it reads), and name the first one that is missing or corrupt.
 */
async function firstBadObject(
  access: GitAccess,
  tree: string,
  read: Set<string>,
): Promise<{ oid: string; path: string } | null> {
  const pending: Array<{ oid: string; path: string; type: 'tree' | 'blob' }> = [{ oid: tree, path: '', type: 'tree' }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (read.has(next.oid)) continue;
    try {
      if (next.type === 'tree') {
        for (const e of await readTreeEntries(access, next.oid)) {
          if (e.type !== 'tree' && e.type !== 'blob') continue;
          pending.push({ oid: e.oid, path: next.path ? `${next.path}/${e.path}` : e.path, type: e.type });
        }
      } else {
        await readTyped(access, next.oid, 'blob');
      }
    } catch {
      return { oid: next.oid, path: next.path };
    }
    read.add(next.oid);
  }
  return null;
}
