import { hasFsCode } from '../fs/errors.js';
import type { FsDirentStat, FsStat, WorkspaceFs } from '../fs/types.js';
import { isAtomicTemp } from '../fs/temp-names.js';
import { parallel } from '../workspace/parallel.js';
import type { SnapshotIgnore } from './ignore.js';
import { unreadable, type SkippedFile } from './skipped.js';
import type { Leaf } from './tree.js';

/** What a rescan's walk needs of the scanner. */
export interface WalkContext {
  fs: WorkspaceFs;
  toAbs: (rel: string) => string;
  ignore: SnapshotIgnore;
  /** a leftover temporary file of an atomic write: removed when abandoned */
  sweepTemp: (rel: string, stat: FsStat) => Promise<void>;
}

/** What a walk found under one folder. */
export interface WalkFound {
  /** files and links, with their lstat */
  files: Array<{ rel: string; stat: FsStat }>;
  /** folders, each after the folder it is in */
  dirs: string[];
  /** places it could not look into, and folders left out by default */
  unreachable: SkippedFile[];
}

/** lstats a backend without readdirStats runs at once. */
const LSTAT_PARALLEL = 16;
/** Folders a walk lists at once. */
const LIST_PARALLEL = 4;

/**
 * Every file, symlink and folder under folder `rel` that snapshots keep; files with their lstat.
 * Inside an ignored place only what the snapshot already holds (`known`, `knownDirs`) is kept.
 * Each folder is listed with its entries' lstat in one backend call where the backend can, and
 * a folder's entries are checked without a task each: a rescan visits every file of the tree.
 */
export async function walkKept(
  ctx: WalkContext,
  rel: string,
  ignoredRoot: boolean,
  known: Map<string, Leaf>,
  knownDirs: Set<string>,
): Promise<WalkFound> {
  const files: WalkFound['files'] = [];
  const found: string[] = [];
  const unreachable: SkippedFile[] = [];
  const dirs: Array<[string, boolean]> = [[rel, ignoredRoot]];
  const reach = async <T>(path: string, work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work();
    } catch (error) {
      const skip = unreadable(path, error);
      if (!skip) throw error;
      unreachable.push(skip);
      return null;
    }
  };
  const visit = async (dir: string, dirIgnored: boolean) => {
    const entries = await reach(dir, () => list(ctx, dir));
    if (!entries) return;
    ctx.ignore.listed(
      dir,
      entries.map((e) => e.name),
    );
    const rules = dirIgnored ? null : await ctx.ignore.rulesFor(dir);
    for (const { name, stat: listed } of entries) {
      const child = dir ? `${dir}/${name}` : name;
      // the listing could not stat it: the path's own lstat says why (or that it is gone)
      const stat = listed ?? (await reach(child, () => lstatOrNull(ctx, child)));
      if (!stat) continue;
      if (stat.type === 'file' && isAtomicTemp(name)) {
        await ctx.sweepTemp(child, stat);
        continue;
      }
      const isDir = stat.type === 'dir';
      const leftOut = rules === null ? 'ignored' : ctx.ignore.leftOutBy(rules, dir, name, isDir);
      const ignored = leftOut !== false;
      if (ignored && !(isDir ? knownDirs.has(child) : known.has(child))) {
        // A .gitignore line is the person's own choice; a folder left out by default is named, once per walk.
        if (leftOut === 'excluded') unreachable.push({ path: child, size_bytes: 0, reason: 'excluded' });
        continue;
      }
      if (isDir) {
        dirs.push([child, ignored]);
        found.push(child);
      } else files.push({ rel: child, stat });
    }
  };
  // Folders are listed a few at a time, so a backend that waits on storage (OPFS, IndexedDB)
  // overlaps them. A lane ends when it finds nothing to take; the lane that adds folders takes them on.
  let failure: unknown = null;
  const lane = async () => {
    while (dirs.length > 0 && failure === null) {
      const [dir, dirIgnored] = dirs.pop()!;
      try {
        await visit(dir, dirIgnored);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  while (dirs.length > 0 && failure === null)
    await Promise.all(Array.from({ length: Math.min(LIST_PARALLEL, dirs.length) }, lane));
  if (failure !== null) throw failure;
  return { files, dirs: found, unreachable };
}

/** A folder's entries with their lstat, in one backend call where the backend offers it; a folder gone is empty. */
async function list(ctx: WalkContext, dir: string): Promise<FsDirentStat[]> {
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

async function lstatOrNull(ctx: WalkContext, rel: string): Promise<FsStat | null> {
  try {
    return await ctx.fs.lstat(ctx.toAbs(rel));
  } catch (error) {
    if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return null;
    throw error;
  }
}
