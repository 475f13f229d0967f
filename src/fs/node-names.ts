import * as fs from 'node:fs';
import { hasEscapedBytes, nameFromBytes, nameToBytes, utf8Name } from './name-bytes.js';
import { fromNodeStats } from './stat.js';
import type { FsDirentStat, FsStat } from './types.js';

/** A path as Node's fs takes it: the string itself, or its original bytes when it holds escaped ones (see name-bytes.ts). */
export function native(path: string): string | Buffer {
  if (!hasEscapedBytes(path)) return path;
  const bytes = nameToBytes(path);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * A folder's names listed this long after its mtime are trusted for as long as the folder keeps
 * that mtime: a later entry added, removed or renamed in the same timestamp tick would otherwise
 * go unseen (the rescan's rule for files, applied to folders).
 */
const RACY_MS = 1000;
/** Folders remembered at most; past that the memory starts over. */
const MAX_FOLDERS = 100_000;

interface Listing {
  mtimeMs: number;
  ino: number;
  dev: number;
  names: string[];
  /** per name, whether it is used as the path itself (a UTF-8 name), or null when all are */
  plain: boolean[] | null;
}

/**
 * readdirStats for the node backend: each folder's entries with their lstat. A folder's names are
 * remembered with its mtime, inode and device, and listed again only when one of them moved:
 * POSIX moves a folder's mtime whenever an entry is created, removed or renamed in it, so a folder
 * that kept all three (and was listed a second or more after that mtime) still holds exactly
 * those names. One stat of the folder then stands in for its listing (an open, two reads of the
 * entries and a close, and a string per name). Each entry is still lstat-ed every time: a file
 * edited in place moves its own mtime, never its folder's.
 */
export class FolderListings {
  private readonly known = new Map<string, Listing>();

  /** The entries of the folder that `path` names, reached as `p` (itself, or a descriptor's `/proc` path). */
  stats(path: string, p: string): FsDirentStat[] {
    const escaped = native(p) !== p;
    const { names, plain } = this.names(path, p);
    const out: FsDirentStat[] = [];
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      let stat: FsStat | null = null;
      try {
        const child = `${p}/${name}`;
        // a UTF-8 name in a plain folder path is its own native path: no escape to look for
        const s = fs.lstatSync(escaped || (plain !== null && !plain[i]) ? native(child) : child, {
          throwIfNoEntry: false,
        });
        if (s === undefined) continue; // gone since the listing
        stat = fromNodeStats(s);
      } catch {
        // the caller's own lstat of the path gives the precise error
      }
      out.push({ name, stat });
    }
    return out;
  }

  /** Forget every folder (the backend was closed). */
  clear(): void {
    this.known.clear();
  }

  private names(path: string, p: string): { names: string[]; plain: boolean[] | null } {
    const before = Date.now();
    // followed, as the listing follows: `p` may be a descriptor's `/proc` link
    const self = fs.statSync(native(p), { throwIfNoEntry: false });
    const seen = self === undefined ? undefined : this.known.get(path);
    if (seen !== undefined && seen.mtimeMs === self!.mtimeMs && seen.ino === self!.ino && seen.dev === self!.dev)
      return seen;
    const listing = list(p);
    if (self?.isDirectory() && before - self.mtimeMs >= RACY_MS) {
      if (this.known.size >= MAX_FOLDERS) this.known.clear();
      this.known.set(path, { mtimeMs: self.mtimeMs, ino: self.ino, dev: self.dev, ...listing });
    } else this.known.delete(path);
    return listing;
  }
}

/**
 * A folder's names as strings decoded by Node: no buffer per name. A name that is not UTF-8 comes
 * out with U+FFFD in it; such a folder is listed again by bytes, which escape it losslessly.
 */
function list(p: string): { names: string[]; plain: boolean[] | null } {
  const names = fs.readdirSync(native(p));
  if (!names.some((n) => n.includes('\uFFFD'))) return { names, plain: null };
  const raw = fs.readdirSync(native(p), { encoding: 'buffer' });
  const plain = raw.map((b) => utf8Name(b) !== null);
  return { names: raw.map((b) => utf8Name(b) ?? nameFromBytes(b)), plain };
}
