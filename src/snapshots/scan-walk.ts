import { hasFsCode } from '../fs/errors.js';
import type { FsDirentStat, FsStat, WorkspaceFs } from '../fs/types.js';
import { isAtomicTemp } from '../fs/temp-names.js';
import { parallel } from '../workspace/parallel.js';
import type { SnapshotIgnore } from './ignore.js';
import { unreadable, type SkippedFile } from './skipped.js';
import type { Dir, Leaf, TreeCache } from './tree.js';

/** What a rescan's walk needs of the scanner, whose stat cache holds an `S` per file. */
export interface WalkContext<S> {
  fs: WorkspaceFs;
  toAbs: (rel: string) => string;
  ignore: SnapshotIgnore;
  /** the snapshot's tree, walked beside the backend's folders */
  tree: TreeCache;
  /** the stat cache's entries for folder `dir`, by name (see Scanner) */
  statsOf: (dir: string) => ReadonlyMap<string, S> | undefined;
  /** whether a file whose stat cache entry is `seen` still is what the snapshot holds (`held`), without a read */
  trusted: (seen: S | undefined, stat: FsStat, held: Leaf) => boolean;
  /** a leftover temporary file of an atomic write: removed when abandoned */
  sweepTemp: (rel: string, stat: FsStat) => Promise<void>;
}

/** A file or link to read: new, or changed since the stat cache last saw it. */
export interface ToExamine {
  rel: string;
  stat: FsStat;
  /** Date.now() before that stat was taken */
  statAt: number;
  /** what the snapshot holds at that path */
  current: Leaf | undefined;
}

/** What a walk found under one folder, compared with the snapshot's tree there. */
export interface WalkFound {
  toExamine: ToExamine[];
  /** what the snapshot holds that is gone or is another kind now (a file or a whole folder each) */
  gone: string[];
  /** folders the snapshot does not hold yet, each after the folder it is in */
  newDirs: string[];
  /** places it could not look into, and folders left out by default */
  unreachable: SkippedFile[];
}

/** lstats a backend without readdirStats runs at once. */
const LSTAT_PARALLEL = 16;
/** Folders a walk lists at once. */
const LIST_PARALLEL = 4;

/**
 * Compares folder `rel` (the snapshot's folder `held` there, or null) with the backend, below it
 * too: every file, link and folder snapshots keep. Each folder is listed with its entries' lstat
 * in one backend call where the backend can, beside the same folder of the snapshot's tree, so a
 * file the stat cache vouches for costs a lookup by name: no path, no task, no entry of its own.
 * Inside an ignored place only what the snapshot already holds is kept. What cannot be reached
 * keeps what the snapshot holds for it, and is reported.
 */
export async function walkKept<S>(
  ctx: WalkContext<S>,
  rel: string,
  ignoredRoot: boolean,
  held: Dir,
): Promise<WalkFound> {
  const found: WalkFound = { toExamine: [], gone: [], newDirs: [], unreachable: [] };
  const jobs: Array<[string, boolean, Dir | null]> = [[rel, ignoredRoot, held]];
  const reach = async <T>(path: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      const skip = unreadable(path, error);
      if (!skip) throw error;
      found.unreachable.push(skip);
      return undefined;
    }
  };
  const visit = async (dir: string, dirIgnored: boolean, heldDir: Dir | null) => {
    const statAt = Date.now();
    const entries = await reach(dir, () => list(ctx, dir));
    if (!entries) return;
    let gitignore: (typeof entries)[number] | null = null;
    for (const e of entries) if (e.name === '.gitignore') gitignore = e;
    ctx.ignore.listed(dir, gitignore);
    const rules = dirIgnored ? null : await ctx.ignore.rulesFor(dir);
    const map = heldDir === null ? null : (heldDir.entries ?? (await ctx.tree.entries(heldDir)));
    const stats = ctx.statsOf(dir);
    // the names whose snapshot entry stays in place (perhaps with new bytes)
    const kept: string[] = [];
    for (const entry of entries) {
      const name = entry.name;
      const was = map?.get(name);
      // A file the stat cache vouches for (the common case by far) costs this lookup and no more.
      if (
        entry.stat !== null &&
        entry.stat.type !== 'dir' &&
        was?.kind === 'blob' &&
        stats !== undefined &&
        ctx.trusted(stats.get(name), entry.stat, was) &&
        !isAtomicTemp(name)
      ) {
        kept.push(name);
        continue;
      }
      const child = dir ? `${dir}/${name}` : name;
      // the listing could not stat it: the path's own lstat says why (or that it is gone)
      const stat = entry.stat ?? (await reach(child, () => lstatOrNull(ctx, child)));
      if (stat === undefined) {
        kept.push(name);
        continue;
      }
      if (stat === null) continue;
      if (stat.type === 'file' && isAtomicTemp(name)) {
        await ctx.sweepTemp(child, stat);
        continue;
      }
      const isDir = stat.type === 'dir';
      const leftOut = rules === null ? 'ignored' : ctx.ignore.leftOutBy(rules, dir, name, isDir);
      const same = was !== undefined && (was.kind === 'tree') === isDir;
      if (leftOut !== false && !same) {
        // A .gitignore line is the person's own choice; a folder left out by default is named, once per walk.
        if (leftOut === 'excluded') found.unreachable.push({ path: child, size_bytes: 0, reason: 'excluded' });
        continue;
      }
      if (same) kept.push(name);
      if (isDir) {
        jobs.push([child, leftOut !== false, same ? (was as Dir) : null]);
        if (!same) found.newDirs.push(child);
      } else if (!same || stats === undefined || !ctx.trusted(stats.get(name), stat, was as Leaf)) {
        found.toExamine.push({ rel: child, stat, statAt, current: same ? (was as Leaf) : undefined });
      }
    }
    if (map !== null && kept.length !== map.size) {
      const stays = new Set(kept);
      for (const name of map.keys()) if (!stays.has(name)) found.gone.push(dir ? `${dir}/${name}` : name);
    }
  };
  // Folders are listed a few at a time, so a backend that waits on storage (OPFS, IndexedDB)
  // overlaps them. A lane ends when it finds nothing to take; the lane that adds folders takes them on.
  let failure: unknown = null;
  const lane = async () => {
    while (jobs.length > 0 && failure === null) {
      const [dir, dirIgnored, heldDir] = jobs.pop()!;
      try {
        await visit(dir, dirIgnored, heldDir);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  while (jobs.length > 0 && failure === null)
    await Promise.all(Array.from({ length: Math.min(LIST_PARALLEL, jobs.length) }, lane));
  if (failure !== null) throw failure;
  return found;
}

/** A folder's entries with their lstat, in one backend call where the backend offers it; a folder gone is empty. */
async function list<S>(ctx: WalkContext<S>, dir: string): Promise<FsDirentStat[]> {
  try {
    const abs = ctx.toAbs(dir);
    if (ctx.fs.readdirStats) return await ctx.fs.readdirStats(abs);
    const out: FsDirentStat[] = [];
    await parallel(await ctx.fs.readdir(abs), LSTAT_PARALLEL, async (name) => {
      // a failure is left to the caller's own lstat, which reports it for this path
      const stat = await lstatOrNull(ctx, dir ? `${dir}/${name}` : name).catch(() => undefined);
      if (stat !== null) out.push({ name, stat: stat ?? null });
    });
    return out;
  } catch (error) {
    if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return [];
    throw error;
  }
}

async function lstatOrNull<S>(ctx: WalkContext<S>, rel: string): Promise<FsStat | null> {
  try {
    return await ctx.fs.lstat(ctx.toAbs(rel));
  } catch (error) {
    if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return null;
    throw error;
  }
}
