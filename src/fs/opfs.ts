import { FsError, fsCodeOf, translated } from './errors.js';
import { canUseSyncAccess, PathQueue, readBytes, writeBytes, type OpfsAccess } from './opfs-files.js';
import { makeStat } from './stat.js';
import type { FsDirent, FsStat, WorkspaceFs } from './types.js';

export interface OpfsFsOptions {
  /** a folder below the origin's OPFS root that holds this workspace; absent: the OPFS root itself */
  name?: string;
  /** use this folder instead of the origin's OPFS root (`name` is then looked up inside it) */
  directory?: FileSystemDirectoryHandle;
  /** `auto` (default): sync access handles inside a dedicated worker, the async API elsewhere */
  access?: OpfsAccess | 'auto';
}

/** The async iteration Chromium has and the TypeScript DOM library in use does not declare. */
type IterableDir = FileSystemDirectoryHandle & {
  entries(): AsyncIterableIterator<[string, FileSystemHandle]>;
  keys(): AsyncIterableIterator<string>;
};

type Entry = { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'directory'; handle: FileSystemDirectoryHandle };

/**
 * A backend in the Origin Private File System. OPFS has no symlinks (symlink fails with EPERM,
 * as on a filesystem without them) and no folder rename, so a folder is moved entry by entry.
 * Folder handles are cached by path; only this adapter changes the tree (the workspace lock in
 * web/ keeps a second tab out), and every removal or move drops the cached handles below it.
 */
export async function createOpfsFs(options: OpfsFsOptions = {}): Promise<WorkspaceFs> {
  const base = options.directory ?? (await navigator.storage.getDirectory());
  const top = options.name ? await translated('open', () => base.getDirectoryHandle(options.name!, { create: true })) : base;
  const access: OpfsAccess = options.access === 'auto' || !options.access ? (canUseSyncAccess() ? 'sync' : 'async') : options.access;
  const dirs = new Map<string, FileSystemDirectoryHandle>([['', top]]);
  // File handles too: one edit stats, reads and writes the same file, and each lookup is a round trip.
  const files = new Map<string, FileSystemFileHandle>();
  const queue = new PathQueue();
  // Folder creation has its own queue: a folder rename holds its paths in `queue` while it creates folders.
  const mkdirQueue = new PathQueue();

  const partsOf = (path: string) => path.split('/').filter((p) => p !== '' && p !== '.');
  const forget = (key: string) => {
    files.delete(key);
    for (const map of [dirs, files]) for (const k of map.keys()) if (k === key || k.startsWith(`${key}/`)) map.delete(k);
  };

  /** The folder at `parts`; a missing component is ENOENT and a file in the way is ENOTDIR. */
  async function dirAt(parts: string[]): Promise<FileSystemDirectoryHandle> {
    let key = parts.join('/');
    const hit = dirs.get(key);
    if (hit) return hit;
    let i = parts.length;
    while (i > 0 && !dirs.has(parts.slice(0, i).join('/'))) i--;
    let dir = dirs.get(parts.slice(0, i).join('/'))!;
    for (; i < parts.length; i++) {
      try {
        dir = await dir.getDirectoryHandle(parts[i]!);
      } catch (error) {
        throw new FsError(fsCodeOf(error), 'lookup');
      }
      key = parts.slice(0, i + 1).join('/');
      dirs.set(key, dir);
    }
    return dir;
  }

  async function entryAt(parts: string[]): Promise<Entry> {
    if (parts.length === 0) return { kind: 'directory', handle: top };
    const key = parts.join('/');
    const cached = dirs.get(key);
    if (cached) return { kind: 'directory', handle: cached };
    const cachedFile = files.get(key);
    if (cachedFile) return { kind: 'file', handle: cachedFile };
    const parent = await dirAt(parts.slice(0, -1));
    const name = parts[parts.length - 1]!;
    try {
      const handle = await parent.getFileHandle(name);
      files.set(key, handle);
      return { kind: 'file', handle };
    } catch (error) {
      if ((error as { name?: string }).name !== 'TypeMismatchError') throw error;
    }
    const handle = await parent.getDirectoryHandle(name);
    dirs.set(parts.join('/'), handle);
    return { kind: 'directory', handle };
  }

  const exists = (parts: string[]) => entryAt(parts).then((e) => e, (e) => (fsCodeOf(e) === 'ENOENT' ? null : Promise.reject(e)));

  async function statOf(parts: string[]): Promise<FsStat> {
    const entry = await entryAt(parts);
    if (entry.kind === 'directory') return makeStat('dir', {});
    const file = await entry.handle.getFile();
    return makeStat('file', { size: file.size, mtimeMs: file.lastModified });
  }

  async function list(path: string): Promise<FsDirent[]> {
    const entry = await entryAt(partsOf(path));
    if (entry.kind !== 'directory') throw new FsError('ENOTDIR', 'readdir');
    const out: FsDirent[] = [];
    for await (const [name, handle] of (entry.handle as IterableDir).entries()) out.push({ name, type: handle.kind === 'file' ? 'file' : 'dir' });
    return out;
  }

  async function mkdir(parts: string[], recursive: boolean): Promise<void> {
    if (parts.length === 0) {
      if (recursive) return;
      throw new FsError('EEXIST', 'mkdir');
    }
    if (recursive && !(await exists(parts.slice(0, -1)))) await mkdir(parts.slice(0, -1), true);
    // Check and create as one step per path: OPFS creation is idempotent, Node's mkdir is not.
    await mkdirQueue.run(parts.join('/'), async () => {
      const found = await exists(parts);
      if (found) {
        if (recursive && found.kind === 'directory') return;
        throw new FsError('EEXIST', 'mkdir');
      }
      const parent = await dirAt(parts.slice(0, -1));
      dirs.set(parts.join('/'), await parent.getDirectoryHandle(parts[parts.length - 1]!, { create: true }));
    });
  }

  async function remove(parts: string[], want: 'file' | 'directory'): Promise<void> {
    const entry = await entryAt(parts);
    if (parts.length === 0) throw new FsError('EBUSY', 'rmdir');
    if (entry.kind !== want) throw new FsError(want === 'file' ? 'EISDIR' : 'ENOTDIR', want === 'file' ? 'unlink' : 'rmdir');
    if (want === 'directory') {
      for await (const _ of (entry.handle as IterableDir).keys()) throw new FsError('ENOTEMPTY', 'rmdir');
    }
    await (await dirAt(parts.slice(0, -1))).removeEntry(parts[parts.length - 1]!);
    forget(parts.join('/'));
  }

  async function move(from: string[], to: string[]): Promise<void> {
    const src = await entryAt(from);
    const key = from.join('/');
    const toKey = to.join('/');
    if (toKey === key) return;
    if (from.length === 0 || toKey.startsWith(`${key}/`)) throw new FsError('EINVAL', 'rename');
    const destDir = await dirAt(to.slice(0, -1));
    const name = to[to.length - 1]!;
    const dest = await exists(to);
    if (dest && src.kind === 'directory' && dest.kind !== 'directory') throw new FsError('ENOTDIR', 'rename');
    if (dest && src.kind === 'file' && dest.kind === 'directory') throw new FsError('EISDIR', 'rename');
    forget(key);
    forget(toKey);
    if (src.kind === 'file') {
      const movable = src.handle as FileSystemFileHandle & { move?(dir: FileSystemDirectoryHandle, name: string): Promise<void> };
      if (movable.move) await movable.move(destDir, name);
      else {
        await writeBytes(await destDir.getFileHandle(name, { create: true }), await readBytes(src.handle), access);
        await (await dirAt(from.slice(0, -1))).removeEntry(from[from.length - 1]!);
      }
      return;
    }
    if (dest) await remove(to, 'directory');
    await mkdir(to, false);
    for (const child of await list(`/${key}`)) await move([...from, child.name], [...to, child.name]);
    await remove(from, 'directory');
  }

  const file = async (parts: string[], op: string): Promise<FileSystemFileHandle> => {
    const entry = await entryAt(parts);
    if (entry.kind !== 'file') throw new FsError('EISDIR', op);
    return entry.handle;
  };

  async function write(parts: string[], bytes: Uint8Array): Promise<void> {
    if (parts.length === 0) throw new FsError('EISDIR', 'writeFile');
    const parent = await dirAt(parts.slice(0, -1));
    const name = parts[parts.length - 1]!;
    let handle: FileSystemFileHandle;
    let created = false;
    try {
      handle = files.get(parts.join('/')) ?? (await parent.getFileHandle(name));
    } catch (error) {
      const n = (error as { name?: string }).name;
      if (n === 'TypeMismatchError') throw new FsError('EISDIR', 'writeFile');
      if (n !== 'NotFoundError') throw error;
      handle = await parent.getFileHandle(name, { create: true });
      created = true;
    }
    try {
      await writeBytes(handle, bytes, access);
      files.set(parts.join('/'), handle);
    } catch (error) {
      if (created) await parent.removeEntry(name).catch(() => {});
      throw error;
    }
  }

  const key = (path: string) => partsOf(path).join('/');
  const fs: WorkspaceFs = {
    readFile: ((path: string, opts?: unknown) =>
      translated('readFile', () => queue.run(key(path), async () => {
        const bytes = await readBytes(await file(partsOf(path), 'readFile'));
        const encoding = typeof opts === 'string' ? opts : (opts as { encoding?: string } | undefined)?.encoding;
        return encoding === 'utf8' || encoding === 'utf-8' ? new TextDecoder().decode(bytes) : bytes;
      }))) as WorkspaceFs['readFile'],
    writeFile: (path, data) =>
      translated('writeFile', () => queue.run(key(path), () =>
        write(partsOf(path), typeof data === 'string' ? new TextEncoder().encode(data) : data))),
    readdir: (path) => translated('readdir', async () => (await list(path)).map((d) => d.name)),
    readdirTypes: (path) => translated('readdir', () => list(path)),
    stat: (path) => translated('stat', () => queue.run(key(path), () => statOf(partsOf(path)))),
    lstat: (path) => translated('lstat', () => queue.run(key(path), () => statOf(partsOf(path)))),
    mkdir: (path, o) => translated('mkdir', () => mkdir(partsOf(path), o?.recursive ?? false)),
    rmdir: (path) => translated('rmdir', () => remove(partsOf(path), 'directory')),
    unlink: (path) => translated('unlink', () => queue.run(key(path), () => remove(partsOf(path), 'file'))),
    rename: (from, to) => translated('rename', () => queue.runAll([key(from), key(to)], () => move(partsOf(from), partsOf(to)))),
    readlink: (path) => translated('readlink', async () => { await entryAt(partsOf(path)); throw new FsError('EINVAL', 'readlink'); }),
    symlink: () => translated('symlink', async () => { throw new FsError('EPERM', 'symlink'); }),
    capabilities: { symlinks: false, atomicRename: true },
  };
  return fs;
}
