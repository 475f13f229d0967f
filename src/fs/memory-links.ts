import type { Link, Superblock } from '@jsonjoy.com/fs-core';
import { FsError } from './errors.js';
import { makeStat } from './stat.js';
import type { FsDirent, FsDirentStat, FsStat } from './types.js';

/** An absolute path with no empty, `.` or `..` component and no trailing slash (the root aside). */
const CANONICAL = /^(?:\/(?!\.\.?(?:\/|$))[^/\0]+)+$/;

type MemNode = ReturnType<Link['getNode']>;

/**
 * The folders of a memfs tree by path, so a call on `/a/.../a/f` looks its parent up once instead
 * of memfs walking (and stamping an access time on) every component from the root: on a tree
 * thousands of levels deep that walk made each call cost as much as the depth, and a walk over the
 * tree cost the depth squared.
 *
 * Only the plain case is answered here: a canonical path whose folders are real folders (no link)
 * that memfs would let us enter. Everything else resolves `undefined` and the caller asks memfs, so
 * the answers and errors stay memfs's own. Entries are dropped when a folder is removed or renamed.
 */
export class MemoryLinks {
  readonly #dirs = new Map<string, Link>();
  readonly #sb: Superblock;
  /**
   * The folder found last: walks and parent checks go one level at a time, so the next path is
   * usually this one or a child of it, found by comparing strings instead of hashing a long key.
   */
  #last: { path: string; link: Link } | null = null;
  /** the ids memfs checks a listing against: the process's own, asked once instead of per listing */
  readonly #uid: number;
  readonly #gid: number;

  constructor(sb: Superblock) {
    this.#sb = sb;
    const host = (globalThis as { process?: { getuid?: () => number; getgid?: () => number } }).process;
    this.#uid = host?.getuid?.() ?? 0;
    this.#gid = host?.getgid?.() ?? 0;
  }

  /** The folder at `path`, or undefined when the fast path does not apply. */
  dir(path: string): Link | undefined {
    if (path === '/') return this.#sb.root;
    const last = this.#last;
    if (last !== null && path.length >= last.path.length && path.startsWith(last.path)) {
      if (path.length === last.path.length) return last.link;
      const child =
        path.charCodeAt(last.path.length) === 47 && path.indexOf('/', last.path.length + 1) === -1
          ? this.#step(last.link, path.slice(last.path.length + 1))
          : undefined;
      if (child !== undefined) {
        this.#dirs.set(path, child);
        this.#last = { path, link: child };
        return child;
      }
    }
    const hit = this.#dirs.get(path);
    if (hit !== undefined) {
      this.#last = { path, link: hit };
      return hit;
    }
    if (!CANONICAL.test(path)) return undefined;
    const { link, end } = this.#reach(path);
    if (end !== path.length) return undefined;
    this.#last = { path, link };
    return link;
  }

  /** `name` in folder `link`, when it is a folder the fast path may enter. */
  #step(link: Link, name: string): Link | undefined {
    if (name === '' || name === '.' || name === '..' || name.includes('\0')) return undefined;
    const child = link.children.get(name);
    if (child === undefined) return undefined;
    const node = child.getNode();
    return node.isDirectory() && node.canExecute(0, 0) ? child : undefined;
  }

  /** The deepest folder on `path` the fast path reaches, and where its path ends in `path`. */
  #reach(path: string): { link: Link; end: number } {
    // back up to the nearest known folder, then step down, remembering each folder on the way
    let end = path.length;
    let link: Link = this.#sb.root;
    while (end > 0) {
      end = path.lastIndexOf('/', end - 1);
      if (end <= 0) {
        end = 0;
        break;
      }
      const known = this.#dirs.get(path.slice(0, end));
      if (known !== undefined) {
        link = known;
        break;
      }
    }
    while (end < path.length) {
      const next = path.indexOf('/', end + 1);
      const stop = next === -1 ? path.length : next;
      const child = link.children.get(path.slice(end + 1, stop));
      if (child === undefined) break;
      const node = child.getNode();
      if (!node.isDirectory() || !node.canExecute(0, 0)) break;
      this.#dirs.set(path.slice(0, stop), child);
      link = child;
      end = stop;
    }
    return { link, end };
  }

  /**
   * The entry at `path` in a folder the fast path reaches: `null` when that folder has no such
   * name (memfs would say ENOENT), undefined when the fast path does not apply.
   */
  entry(path: string): MemNode | null | undefined {
    const slash = path.lastIndexOf('/');
    if (slash < 0 || slash === path.length - 1) return undefined;
    const parent = this.dir(slash === 0 ? '/' : path.slice(0, slash));
    if (parent === undefined) return undefined;
    const name = path.slice(slash + 1);
    if (name === '.' || name === '..') return undefined;
    const child = parent.children.get(name);
    return child === undefined ? null : child.getNode();
  }

  /** lstat (or stat, when `follow` and the entry is not a link) from the tree, or undefined. */
  stat(path: string, operation: string, follow: boolean): FsStat | undefined {
    const node = this.entry(path);
    if (node === null) throw missing(operation);
    if (node === undefined || (follow && node.isSymlink())) return undefined;
    return statOfNode(node);
  }

  /** A readable regular file's bytes (a copy), or undefined; ENOENT when its folder lacks it. */
  readFile(path: string): Uint8Array | undefined {
    const node = this.entry(path);
    if (node === null) throw missing('readFile');
    if (node === undefined || !node.isFile() || !node.canRead(0, 0)) return undefined;
    const bytes = node.getBuffer();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** A readable folder's entries, sorted as memfs sorts them, or undefined. */
  readdir(path: string): FsDirent[] | undefined {
    const link = this.dir(path);
    // memfs checks a listing against the process's own ids, not the volume's
    if (link === undefined || !link.getNode().canRead(this.#uid, this.#gid)) return undefined;
    const list: FsDirent[] = [];
    for (const [name, child] of link.children) {
      if (child === undefined || name === '.' || name === '..') continue;
      const node = child.getNode();
      list.push({
        name,
        type: node.isSymlink() ? 'symlink' : node.isDirectory() ? 'dir' : node.isFile() ? 'file' : 'other',
      });
    }
    return list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** A readable folder's entries with their lstat, or undefined (see readdir). */
  readdirStats(path: string): FsDirentStat[] | undefined {
    const link = this.dir(path);
    if (link === undefined || !link.getNode().canRead(this.#uid, this.#gid)) return undefined;
    const list: FsDirentStat[] = [];
    for (const [name, child] of link.children) {
      if (child === undefined || name === '.' || name === '..') continue;
      list.push({ name, stat: statOfNode(child.getNode()) ?? null });
    }
    return list;
  }

  /** Forget every folder (after a change to a path this index cannot place). */
  clear(): void {
    this.#last = null;
    this.#dirs.clear();
  }

  /** Forget `path` (a folder removed or replaced) and, when it was a folder moved away, all below it. */
  forget(path: string, withContents: boolean): void {
    this.#last = null;
    // a path spelled another way, or through a link, may name any folder: forget them all
    if (this.entry(path) === undefined) {
      this.clear();
      return;
    }
    this.#dirs.delete(path);
    if (!withContents) return;
    const below = `${path}/`;
    for (const key of this.#dirs.keys()) if (key.startsWith(below)) this.#dirs.delete(key);
  }
}

/** A memfs node's stat in the backend contract's shape; undefined for a kind the contract has no name for. */
export function statOfNode(node: MemNode): FsStat | undefined {
  const type = node.isSymlink() ? 'symlink' : node.isDirectory() ? 'dir' : node.isFile() ? 'file' : undefined;
  if (type === undefined) return undefined;
  return makeStat(type, {
    mode: node.mode,
    size: node.getSize(),
    ino: node.ino,
    mtimeMs: node.mtime.getTime(),
    ctimeMs: node.ctime.getTime(),
    uid: node.uid,
    gid: node.gid,
    dev: 0,
    nlink: node.nlink,
  });
}

/**
 * ENOENT without a stack: a missing path is an everyday answer (a checkout asks it of every file
 * it writes), and capturing the stack, async frames included, cost more than the lookup.
 */
function missing(operation: string): FsError {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  const error = new FsError('ENOENT', operation);
  Error.stackTraceLimit = limit;
  return error;
}
