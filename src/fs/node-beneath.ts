import * as fs from 'node:fs';
import { FsError } from './errors.js';
import { SpecialFileError, specialKindOf } from './special.js';
import { native } from './node-names.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * Whether paths can be resolved through descriptors here: Linux's `/proc/self/fd/N/name` is
 * resolved by the kernel relative to descriptor N itself, so a folder renamed or swapped for a
 * link after it was opened changes nothing about where the operation lands.
 */
export const BENEATH_SUPPORTED =
  process.platform === 'linux' &&
  typeof O_DIRECTORY === 'number' &&
  typeof O_NOFOLLOW === 'number' &&
  fs.existsSync('/proc/self/fd');

const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;
const KEPT_FOLDERS = 32;

/**
 * Race-free resolution below one root folder. Every operation on `root/a/b/name` opens the root,
 * then `a` and `b` each through the descriptor of the folder before it with O_NOFOLLOW (a link
 * anywhere on the way is ELOOP, a file ENOTDIR), and does the final system call on
 * `/proc/self/fd/<b>/name`. Check and use are then one motion: a process swapping a folder for a
 * link outside between two tool calls, or during one, cannot carry a read or a write outside.
 * Temporary files and renames happen inside the same folder descriptor.
 */
export class Beneath {
  private readonly prefix: string;

  constructor(readonly root: string) {
    this.prefix = root.endsWith('/') ? root : `${root}/`;
  }

  /** The components of `abs` below the root, or null when `abs` is not below it. */
  partsOf(abs: string): string[] | null {
    if (abs === this.root || `${abs}/` === this.prefix) return [];
    if (!abs.startsWith(this.prefix)) return null;
    const parts = abs
      .slice(this.prefix.length)
      .split('/')
      .filter((p) => p !== '');
    return parts.some((p) => p === '.' || p === '..') ? null : parts;
  }

  // The root is trusted (the workspace was opened on it), so its descriptor is opened once and kept:
  // a root renamed or replaced later is still the folder the workspace was opened on.
  private rootFd: number | null = null;

  private rootDescriptor(): number {
    this.rootFd ??= fs.openSync(this.root, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
    return this.rootFd;
  }

  /**
   * Folders opened by earlier calls, kept open: the shadow history's objects sit four folders
   * down, and walking there again cost each snapshot dozens of opens. A kept descriptor is used
   * only while the kernel still places it exactly at the path it was opened by (its
   * `/proc/self/fd` link), which a deleted folder never matches. A folder renamed, removed or
   * swapped for a link since is walked afresh, so it confines as the walk does: the operation
   * lands in the folder that is at that path below the root when the call checks.
   */
  private readonly kept = new Map<string, { fd: number; users: number }>();
  private rootReal: string | null = null;

  private keptFolder(key: string): { fd: number; users: number } | null {
    const entry = this.kept.get(key);
    if (!entry) return null;
    // The root's own path is read once: the kept folder is checked by where the kernel places it
    // now, and only a process that may rename the root itself could move one elsewhere.
    this.rootReal ??= fs.readlinkSync(`/proc/self/fd/${this.rootDescriptor()}`);
    let current = false;
    try {
      current = fs.readlinkSync(`/proc/self/fd/${entry.fd}`) === `${this.rootReal === '/' ? '' : this.rootReal}/${key}`;
    } catch {
      /* closed under us: walk again */
    }
    this.kept.delete(key);
    if (!current) {
      if (entry.users === 0) fs.closeSync(entry.fd);
      return null;
    }
    this.kept.set(key, entry); // the newest at the end, so the oldest goes first
    return entry;
  }

  private keep(key: string, fd: number): { fd: number; users: number } {
    const entry = { fd, users: 0 };
    this.kept.set(key, entry);
    for (const [oldKey, old] of this.kept) {
      if (this.kept.size <= KEPT_FOLDERS) break;
      if (old.users > 0) continue;
      this.kept.delete(oldKey);
      fs.closeSync(old.fd);
    }
    return entry;
  }

  /** Close the kept folders (the root stays: it is the workspace's own). */
  release(): void {
    for (const [key, entry] of this.kept) {
      if (entry.users > 0) continue;
      this.kept.delete(key);
      fs.closeSync(entry.fd);
    }
  }

  /** Run `work` with the descriptor of the folder `parts` names, opened without following links. */
  inDir<T>(parts: readonly string[], work: (dirFd: number) => T): T {
    const held = this.hold(parts);
    try {
      return work(held.fd);
    } finally {
      held.release();
    }
  }

  /**
   * inDir for work that finishes later: the descriptor stays open until `work` settles, so what
   * it hands to another thread (a `/proc/self/fd` path) still names the folder checked here.
   */
  async inDirHeld<T>(parts: readonly string[], work: (dirFd: number) => Promise<T>): Promise<T> {
    const held = this.hold(parts);
    try {
      return await work(held.fd);
    } finally {
      held.release();
    }
  }

  /** The folder's descriptor, kept or walked to, and how to let it go when the work is done. */
  private hold(parts: readonly string[]): { fd: number; release: () => void } {
    if (parts.length === 0) return { fd: this.rootDescriptor(), release: () => {} };
    if (!worthKeeping(parts)) {
      const fd = this.walk(parts);
      return { fd, release: () => fs.closeSync(fd) };
    }
    const key = parts.join('/');
    const entry = this.keptFolder(key) ?? this.keep(key, this.walk(parts));
    entry.users++;
    return {
      fd: entry.fd,
      release: () => {
        entry.users--;
        // dropped from the cache while in use (found stale by a nested call): close it now
        if (entry.users === 0 && this.kept.get(key) !== entry) fs.closeSync(entry.fd);
      },
    };
  }

  /** Open the folder `parts` names from the nearest kept folder above it (or the root), one component at a time. */
  private walk(parts: readonly string[]): number {
    let from = 0;
    let base = this.rootDescriptor();
    for (let depth = parts.length - 1; depth > 0; depth--) {
      const above = this.keptFolder(parts.slice(0, depth).join('/'));
      if (above) {
        from = depth;
        base = above.fd;
        break;
      }
    }
    let fd = fs.openSync(native(`/proc/self/fd/${base}/${parts[from]}`), DIR_FLAGS);
    try {
      for (const part of parts.slice(from + 1)) {
        const next = fs.openSync(native(`/proc/self/fd/${fd}/${part}`), DIR_FLAGS);
        fs.closeSync(fd);
        fd = next;
      }
      return fd;
    } catch (error) {
      fs.closeSync(fd);
      throw error;
    }
  }

  /**
   * Run `work` with the `/proc` path of the last component of `parts` inside its folder's
   * descriptor (the root itself is trusted: the workspace was opened on it).
   */
  at<T>(parts: readonly string[], work: (path: string, dirFd: number) => T): T {
    if (parts.length === 0) return work(this.root, -1);
    return this.inDir(parts.slice(0, -1), (dirFd) => work(`/proc/self/fd/${dirFd}/${parts[parts.length - 1]}`, dirFd));
  }
}

/**
 * A folder one level down is opened again faster than a kept one is checked. A deleted folder's
 * `/proc` link ends in " (deleted)", so a folder whose own name ends so is never kept: no deleted
 * folder can then pass for a live one.
 */
function worthKeeping(parts: readonly string[]): boolean {
  return parts.length >= 2 && !parts[parts.length - 1]!.endsWith(' (deleted)');
}

/**
 * Open a regular file for reading (without following a final link unless `follow`); anything
 * else is refused. O_NONBLOCK: opening a FIFO never waits for a writer, and it is refused next.
 */
export function openRegularFile(path: string, follow = false): number {
  let fd: number;
  try {
    fd = fs.openSync(native(path), O_RDONLY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
  } catch (error) {
    // a unix socket cannot be opened at all (ENXIO)
    if ((error as { code?: unknown }).code === 'ENXIO') {
      const kind = specialKindOf(fs.lstatSync(native(path), { throwIfNoEntry: false }) ?? {});
      if (kind) throw new SpecialFileError(kind, 'open');
    }
    throw error;
  }
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) {
    fs.closeSync(fd);
    const kind = specialKindOf(stat);
    throw kind ? new SpecialFileError(kind, 'open') : new FsError('EISDIR', 'open');
  }
  return fd;
}
