import { hasFsCode } from './errors.js';
import type { FsStat, WorkspaceFs } from './types.js';

/**
 * Whether an error only says the path is not there: ENOENT, or ENOTDIR when a component above it
 * is a file (so nothing can be below it). Every other failure (EIO, EACCES, ENOSPC, ...) is real
 * and must reach the caller; that is the whole point of these helpers.
 */
export function isAbsent(error: unknown): boolean {
  return hasFsCode(error, 'ENOENT', 'ENOTDIR');
}

/** Run `op`; resolve `fallback` when it failed only because the path is absent. */
async function unlessAbsent<T, F>(op: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await op;
  } catch (error) {
    if (isAbsent(error)) return fallback;
    throw error;
  }
}

/** The path's lstat, or null when nothing is there. Other failures are thrown. */
export function lstatOrNull(fs: WorkspaceFs, path: string): Promise<FsStat | null> {
  return unlessAbsent(fs.lstat(path), null);
}

/** The path's stat (links followed), or null when it, or a link's target, is absent. */
export function statOrNull(fs: WorkspaceFs, path: string): Promise<FsStat | null> {
  return unlessAbsent(fs.stat(path), null);
}

/** A folder's names, or null when the folder is absent. Other failures are thrown. */
export function readdirOrNull(fs: WorkspaceFs, path: string): Promise<string[] | null> {
  return unlessAbsent(fs.readdir(path), null);
}

/** A file's bytes, or null when it is absent. Other failures are thrown. */
export function readFileOrNull(fs: WorkspaceFs, path: string): Promise<Uint8Array | null> {
  return unlessAbsent(fs.readFile(path), null);
}

function parentOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i <= 0 ? '/' : path.slice(0, i);
}

/**
 * Make a folder and any missing folders above it, like `mkdir -p`. An existing folder is fine;
 * an existing file (or link) where a folder must go is EEXIST or ENOTDIR, as the backend says.
 * Built from single-level mkdir calls, since not every backend honours `{ recursive: true }`.
 */
export async function mkdirp(fs: WorkspaceFs, path: string): Promise<void> {
  try {
    await fs.mkdir(path);
    return;
  } catch (error) {
    if (hasFsCode(error, 'EEXIST')) {
      if ((await fs.lstat(path)).type === 'dir') return;
      throw error;
    }
    if (!hasFsCode(error, 'ENOENT') || path === '/' || parentOf(path) === path) throw error;
  }
  await mkdirp(fs, parentOf(path));
  try {
    await fs.mkdir(path);
  } catch (error) {
    // Someone else made it between the two calls: as good as made here.
    if (!hasFsCode(error, 'EEXIST') || (await fs.lstat(path)).type !== 'dir') throw error;
  }
}

/**
 * Remove a file, link or empty folder if it is there. Resolves whether something was removed.
 * A folder that is not empty is ENOTEMPTY; other failures are thrown too.
 */
export async function removeIfPresent(fs: WorkspaceFs, path: string): Promise<boolean> {
  const stat = await lstatOrNull(fs, path);
  if (!stat) return false;
  return unlessAbsent(
    (stat.type === 'dir' ? fs.rmdir(path) : fs.unlink(path)).then(() => true),
    false,
  );
}

/**
 * Remove a path and, when it is a folder, everything in it, deepest first. Links are removed,
 * never followed. Absent is fine (resolves false); any other failure stops the removal and is
 * thrown, leaving what was not yet reached in place.
 */
export async function removeTree(fs: WorkspaceFs, path: string): Promise<boolean> {
  const stat = await lstatOrNull(fs, path);
  if (!stat) return false;
  if (stat.type === 'dir') {
    const base = path === '/' ? '' : path;
    for (const name of (await readdirOrNull(fs, path)) ?? []) await removeTree(fs, `${base}/${name}`);
  }
  return removeIfPresent(fs, path);
}

/** A file's bytes, with the link count of the descriptor they were read through when the backend can tell. */
export interface CountedFile {
  bytes: Uint8Array;
  /** hard links of the file read, from the same open as the bytes (undefined when the backend reads without one) */
  nlink?: number;
  /** the lines holding a search's literal, where the backend found them as it read (PlainFile.literalLines) */
  literalLines?: ArrayLike<number>;
}

/**
 * Read `abs` and learn its link count from the descriptor the bytes came through (readPlainFile's
 * fstat), so a file replaced by a hard link between an earlier lstat and the read is still seen
 * as linked. Where readPlainFile declines (a link, a missing file), readFile gives the precise error.
 */
export async function readFileCounted(fs: WorkspaceFs, abs: string): Promise<CountedFile> {
  if (fs.readPlainFile) {
    const cut = abs.lastIndexOf('/');
    const plain = await fs.readPlainFile(
      cut <= 0 ? '/' : abs.slice(0, cut),
      abs.slice(cut + 1),
      Number.MAX_SAFE_INTEGER,
    );
    if (plain?.bytes)
      return { bytes: plain.bytes, ...(plain.stat.nlink !== undefined ? { nlink: plain.stat.nlink } : {}) };
  }
  return { bytes: await fs.readFile(abs) };
}
