// The `sandpit-workspace/conformance/example` entry: a complete third-party backend to copy from.
import { FsError, type FsStat, type WorkspaceFs } from '../index.js';

/*
 * An example third-party backend: the whole tree in one `Map` from absolute path to entry.
 * It is written only against the public `sandpit-workspace` API, the way an S3 or database
 * adapter would be, and declares that it holds no symbolic links. `runConformance` proves it.
 */
type Entry =
  | { type: 'file'; data: Uint8Array; ino: number; mtimeMs: number }
  | { type: 'dir'; ino: number; mtimeMs: number };

/** Options that break the backend on purpose, so a test can show the suite catches each bug. */
export interface MapFsFlaws {
  /** rename refuses to replace an existing file, as some object stores do */
  renameNoReplace?: boolean;
  /** failures carry no Node code */
  uncodedErrors?: boolean;
  /** rmdir removes a folder that still holds entries instead of failing with ENOTEMPTY */
  rmdirIgnoresNotEmpty?: boolean;
  /** writeFile creates a file in a folder that does not exist instead of failing with ENOENT */
  writeWithoutParent?: boolean;
  /** readFile returns the stored bytes themselves, so a caller that changes them changes the file */
  readReturnsStored?: boolean;
}

/**
 * A Map-backed {@link WorkspaceFs} that passes the whole conformance suite: the example the
 * README points to. Paths are absolute POSIX paths; it has no links (`symlink` fails with EPERM)
 * and no file modes. Every failure is an {@link FsError} with a Node code.
 *
 * @param flaws - bugs to plant on purpose (for proving that the suite catches them); none by default
 */
export function createMapFs(flaws: MapFsFlaws = {}): WorkspaceFs {
  const entries = new Map<string, Entry>();
  let inodes = 0;
  let clock = 0;
  // Strictly increasing, so two writes in the same millisecond still look different to a rescan.
  const now = () => (clock = Math.max(Date.now(), clock + 1));
  entries.set('/', { type: 'dir', ino: ++inodes, mtimeMs: now() });

  const fail = (code: ConstructorParameters<typeof FsError>[0], op: string): never => {
    if (flaws.uncodedErrors) throw new Error(`${op} failed`);
    throw new FsError(code, op);
  };
  const norm = (path: string) => {
    const parts: string[] = [];
    for (const part of path.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') parts.pop();
      else parts.push(part);
    }
    return `/${parts.join('/')}`;
  };
  const parentOf = (path: string) => path.slice(0, path.lastIndexOf('/')) || '/';
  const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);
  const get = (path: string, op: string): Entry => {
    const entry = entries.get(path);
    if (entry) return entry;
    // A missing entry below a file is ENOTDIR, as in Node.
    for (let at = parentOf(path); at !== '/'; at = parentOf(at)) {
      if (entries.get(at)?.type === 'file') fail('ENOTDIR', op);
    }
    return fail('ENOENT', op);
  };
  const parentDir = (path: string, op: string) => {
    if (path === '/') fail('EEXIST', op);
    if (get(parentOf(path), op).type !== 'dir') fail('ENOTDIR', op);
  };
  const children = (dir: string) => {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    return [...entries.keys()].filter(
      (p) => p !== dir && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'),
    );
  };
  const stat = (path: string, op: string): FsStat => {
    const e = get(norm(path), op);
    const type = e.type;
    return {
      type,
      mode: type === 'dir' ? 0o40755 : 0o100644,
      size: e.type === 'file' ? e.data.byteLength : 0,
      ino: e.ino,
      mtimeMs: e.mtimeMs,
      ctimeMs: e.mtimeMs,
      uid: 1,
      gid: 1,
      dev: 1,
      isFile: () => type === 'file',
      isDirectory: () => type === 'dir',
      isSymbolicLink: () => false,
    };
  };

  const mkdir = async (path: string, options?: { recursive?: boolean }): Promise<void> => {
    const p = norm(path);
    const existing = entries.get(p);
    if (existing) {
      if (existing.type === 'dir' && options?.recursive) return;
      fail('EEXIST', 'mkdir');
    }
    if (options?.recursive && !entries.has(parentOf(p))) await mkdir(parentOf(p), options);
    parentDir(p, 'mkdir');
    entries.set(p, { type: 'dir', ino: ++inodes, mtimeMs: now() });
  };

  return {
    capabilities: { symlinks: false, atomicRename: true },
    async readFile(path) {
      const e = get(norm(path), 'readFile');
      if (e.type === 'dir') return fail('EISDIR', 'readFile');
      // A copy, so a caller that changes the bytes it was given cannot change the stored file.
      return flaws.readReturnsStored ? e.data : e.data.slice();
    },
    async writeFile(path, data) {
      const p = norm(path);
      if (!(flaws.writeWithoutParent && !entries.has(parentOf(p)))) parentDir(p, 'writeFile');
      const existing = entries.get(p);
      if (existing?.type === 'dir') fail('EISDIR', 'writeFile');
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data.slice();
      entries.set(p, { type: 'file', data: bytes, ino: existing?.ino ?? ++inodes, mtimeMs: now() });
    },
    async readdir(path) {
      const p = norm(path);
      if (get(p, 'readdir').type !== 'dir') fail('ENOTDIR', 'readdir');
      return children(p).map(nameOf).sort();
    },
    async stat(path) {
      return stat(path, 'stat');
    },
    async lstat(path) {
      return stat(path, 'lstat');
    },
    mkdir,
    async rmdir(path) {
      const p = norm(path);
      if (get(p, 'rmdir').type !== 'dir') fail('ENOTDIR', 'rmdir');
      if (p === '/') fail('EBUSY', 'rmdir');
      if (children(p).length && !flaws.rmdirIgnoresNotEmpty) fail('ENOTEMPTY', 'rmdir');
      for (const below of [...entries.keys()]) if (below.startsWith(`${p}/`)) entries.delete(below);
      entries.delete(p);
    },
    async unlink(path) {
      const p = norm(path);
      if (get(p, 'unlink').type === 'dir') fail('EISDIR', 'unlink');
      entries.delete(p);
    },
    async rename(from, to) {
      const src = norm(from);
      const dst = norm(to);
      const moving = get(src, 'rename');
      parentDir(dst, 'rename');
      if (src === dst) return;
      if (moving.type === 'dir' && dst.startsWith(`${src}/`)) fail('EINVAL', 'rename');
      const target = entries.get(dst);
      if (target) {
        if (flaws.renameNoReplace) fail('EEXIST', 'rename');
        if (moving.type === 'file' && target.type === 'dir') fail('EISDIR', 'rename');
        if (moving.type === 'dir' && target.type === 'file') fail('ENOTDIR', 'rename');
        if (target.type === 'dir' && children(dst).length) fail('ENOTEMPTY', 'rename');
      }
      // One synchronous pass: no reader ever sees the tree half moved.
      const moved = [...entries].filter(([p]) => p === src || p.startsWith(`${src}/`));
      for (const [p] of moved) entries.delete(p);
      for (const [p, e] of moved) entries.set(dst + p.slice(src.length), e);
    },
    async readlink(path) {
      get(norm(path), 'readlink');
      return fail('EINVAL', 'readlink');
    },
    async symlink() {
      return fail('EPERM', 'symlink');
    },
  };
}
