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

/** A folder descriptor kept open between calls. */
interface KeptFolder {
  fd: number;
  /** operations holding it now: it is not closed under them */
  users: number;
  /** performance.now() before the check that last found it at its path (its walk, or a readlink) */
  checkedAt: number;
  /** when it was kept or last checked, as a count: the oldest goes first */
  used: number;
}

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
   *
   * A caller may say when its call started (`since`, see ResolveOptions): a kept folder checked
   * after that was at its path during the call, and is used without another check. A search
   * then checks each folder once, when it lists it, and reads its files through that descriptor.
   */
  private readonly kept = new Map<string, KeptFolder>();
  private rootReal: string | null = null;
  /** Keeps and checks of kept folders, counted: the one longest unchecked is closed first. */
  private uses = 0;

  private keptFolder(key: string, since: number | undefined): KeptFolder | null {
    const entry = this.kept.get(key);
    if (!entry) return null;
    // A use that trusts an earlier check does not make the folder recent: a search lists a
    // folder's sub-folders, then reads each one's files once, so the folders still to be read are
    // the recent ones, not those just read (made recent, they pushed out the ones still waiting).
    if (since !== undefined && entry.checkedAt > since) return entry;
    const path = this.pathOf(key);
    // the time before the check: the folder was at its path at some point after it
    const checkedAt = performance.now();
    let current = false;
    try {
      current = fs.readlinkSync(`/proc/self/fd/${entry.fd}`) === path;
    } catch {
      /* closed under us: walk again */
    }
    if (!current) {
      this.kept.delete(key);
      if (entry.users === 0) fs.closeSync(entry.fd);
      return null;
    }
    entry.checkedAt = checkedAt;
    entry.used = ++this.uses;
    return entry;
  }

  private keep(key: string, fd: number, checkedAt: number): KeptFolder {
    const entry: KeptFolder = { fd, users: 0, checkedAt, used: ++this.uses };
    this.kept.set(key, entry);
    this.trim(entry);
    return entry;
  }

  /**
   * Close the folders longest unchecked and not in use until at most KEPT_FOLDERS are kept. The one
   * just kept (`spare`) is never closed: its caller is about to use it, and closing it handed out a
   * closed descriptor (a search reading more folders at once than are kept then failed with EBADF,
   * and the free number could name whatever was opened next). With every other folder in use the
   * cache stays above the limit until they are let go (see hold's release).
   */
  private trim(spare: KeptFolder | null): void {
    while (this.kept.size > KEPT_FOLDERS) {
      // the one longest unchecked and not in use (a search holds some while their files are read)
      let oldest: [string, KeptFolder] | null = null;
      for (const pair of this.kept)
        if (pair[1] !== spare && pair[1].users === 0 && (oldest === null || pair[1].used < oldest[1].used))
          oldest = pair;
      if (oldest === null) break;
      this.kept.delete(oldest[0]);
      fs.closeSync(oldest[1].fd);
    }
  }

  /** Close the kept folders (the root stays: it is the workspace's own). */
  release(): void {
    for (const [key, entry] of this.kept) {
      if (entry.users > 0) continue;
      this.kept.delete(key);
      fs.closeSync(entry.fd);
    }
  }

  /**
   * Run `work` with the descriptor of the folder `parts` names, opened without following links.
   * With `since`, a folder checked after that time is not checked again (see `kept`).
   */
  inDir<T>(parts: readonly string[], work: (dirFd: number) => T, since?: number): T {
    const held = this.hold(parts, since);
    try {
      return work(held.fd);
    } finally {
      held.release();
    }
  }

  /**
   * inDir for work that finishes later: the descriptor stays open until `work` settles, so what
   * it hands to another thread (a `/proc/self/fd` path) still names the folder checked here.
   * For a read: when the folder was not checked now but earlier in the call (`since`), `work`
   * gets a check to make once its files are open (see FolderCheck), so a folder moved away
   * since its check is not read from.
   */
  async inDirHeld<T>(
    parts: readonly string[],
    work: (dirFd: number, recheck: FolderCheck | null) => Promise<T>,
    since?: number,
  ): Promise<T> {
    const before = since === undefined ? 0 : performance.now();
    const held = this.hold(parts, since);
    try {
      const recheck =
        since !== undefined && held.checkedAt < before
          ? { link: `/proc/self/fd/${held.fd}`, path: this.pathOf(parts.join('/')) }
          : null;
      return await work(held.fd, recheck);
    } finally {
      held.release();
    }
  }

  /** The path the kernel gives a folder below the root that is in place (its `/proc/self/fd` link). */
  private pathOf(key: string): string {
    // The root's own path is read once: a kept folder is checked by where the kernel places it
    // now, and only a process that may rename the root itself could move one elsewhere.
    this.rootReal ??= fs.readlinkSync(`/proc/self/fd/${this.rootDescriptor()}`);
    return `${this.rootReal === '/' ? '' : this.rootReal}/${key}`;
  }

  /**
   * The folder's descriptor, kept or walked to, when it was last found in place, and how to let
   * it go when the work is done.
   */
  private hold(
    parts: readonly string[],
    since: number | undefined,
  ): { fd: number; checkedAt: number; release: () => void } {
    if (parts.length === 0) return { fd: this.rootDescriptor(), checkedAt: Infinity, release: () => {} };
    if (!worthKeeping(parts)) {
      const { fd, checkedAt } = this.walk(parts, since);
      return { fd, checkedAt, release: () => fs.closeSync(fd) };
    }
    const key = parts.join('/');
    let entry = this.keptFolder(key, since);
    if (entry === null) {
      const walked = this.walk(parts, since);
      entry = this.keep(key, walked.fd, walked.checkedAt);
    }
    const held = entry;
    held.users++;
    return {
      fd: held.fd,
      checkedAt: held.checkedAt,
      release: () => {
        held.users--;
        if (held.users > 0) return;
        // dropped from the cache while in use (found stale by a nested call): close it now
        if (this.kept.get(key) !== held) fs.closeSync(held.fd);
        // kept above the limit while every folder was in use: back to it now one is free
        else this.trim(null);
      },
    };
  }

  /**
   * Open the folder `parts` names from the nearest kept folder above it (or the root), one
   * component at a time; with when the chain was checked: a folder opened inside another is
   * where that one was when it was checked (the root is always where it was opened).
   */
  private walk(parts: readonly string[], since: number | undefined): { fd: number; checkedAt: number } {
    let from = 0;
    let base = this.rootDescriptor();
    let checkedAt = performance.now();
    for (let depth = parts.length - 1; depth > 0; depth--) {
      const above = this.keptFolder(parts.slice(0, depth).join('/'), since);
      if (above) {
        from = depth;
        base = above.fd;
        checkedAt = above.checkedAt;
        break;
      }
    }
    let fd = fs.openSync(native(`/proc/self/fd/${base}/${parts[from]}`), DIR_FLAGS);
    // the folders on the way are kept too: a walk's siblings (a search lists a folder's
    // sub-folders one after another) then open inside their parent instead of from the root
    const opened: Array<[string, number]> = [];
    try {
      for (let i = from + 1; i < parts.length; i++) {
        const next = fs.openSync(native(`/proc/self/fd/${fd}/${parts[i]}`), DIR_FLAGS);
        if (worthKeeping(parts.slice(0, i))) opened.push([parts.slice(0, i).join('/'), fd]);
        else fs.closeSync(fd);
        fd = next;
      }
    } catch (error) {
      fs.closeSync(fd);
      for (const [, on] of opened) fs.closeSync(on);
      throw error;
    }
    for (const [key, on] of opened) {
      const old = this.kept.get(key);
      // one kept already (a nested call walked there meanwhile): this one is not needed
      if (old === undefined) this.keep(key, on, checkedAt);
      else fs.closeSync(on);
    }
    return { fd, checkedAt };
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
 * A deleted folder's `/proc` link ends in " (deleted)", so a folder whose own name ends so is
 * never kept: no deleted folder can then pass for a live one. A folder one level down is kept
 * too: checking a kept one (a readlink) costs less than opening and closing it again, and the
 * folders below it are then opened inside it rather than from the root.
 */
function worthKeeping(parts: readonly string[]): boolean {
  return !parts[parts.length - 1]!.endsWith(' (deleted)');
}

/**
 * A folder to check after its files are opened: `link` (its descriptor's `/proc` path) must then
 * read `path`, or the read is null as a whole.
 */
export interface FolderCheck {
  link: string;
  path: string;
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
