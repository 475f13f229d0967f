import * as fs from 'node:fs';
import { FsError } from './errors.js';

const { O_RDONLY, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/**
 * Whether paths can be resolved through descriptors here: Linux's `/proc/self/fd/N/name` is
 * resolved by the kernel relative to descriptor N itself, so a folder renamed or swapped for a
 * link after it was opened changes nothing about where the operation lands.
 */
export const BENEATH_SUPPORTED = process.platform === 'linux' && typeof O_DIRECTORY === 'number' && typeof O_NOFOLLOW === 'number'
  && fs.existsSync('/proc/self/fd');

const DIR_FLAGS = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK;

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
    const parts = abs.slice(this.prefix.length).split('/').filter((p) => p !== '');
    return parts.some((p) => p === '.' || p === '..') ? null : parts;
  }

  // The root is trusted (the workspace was opened on it), so its descriptor is opened once and kept:
  // a root renamed or replaced later is still the folder the workspace was opened on.
  private rootFd: number | null = null;

  private rootDescriptor(): number {
    this.rootFd ??= fs.openSync(this.root, O_RDONLY | O_DIRECTORY | O_NONBLOCK);
    return this.rootFd;
  }

  /** Run `work` with the descriptor of the folder `parts` names, opened without following links. */
  inDir<T>(parts: readonly string[], work: (dirFd: number) => T): T {
    if (parts.length === 0) return work(this.rootDescriptor());
    let fd = fs.openSync(`/proc/self/fd/${this.rootDescriptor()}/${parts[0]}`, DIR_FLAGS);
    try {
      for (const part of parts.slice(1)) {
        const next = fs.openSync(`/proc/self/fd/${fd}/${part}`, DIR_FLAGS);
        fs.closeSync(fd);
        fd = next;
      }
      return work(fd);
    } finally {
      fs.closeSync(fd);
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

/** Open a regular file for reading without following a final link; anything else is refused. */
export function openFileNoFollow(path: string): number {
  const fd = fs.openSync(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (!fs.fstatSync(fd).isFile()) {
    fs.closeSync(fd);
    throw new FsError('EISDIR', 'open');
  }
  return fd;
}
