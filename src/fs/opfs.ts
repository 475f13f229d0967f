import { FsError, fsCodeOf, translated } from './errors.js';
import { OpfsCache } from './opfs/cache.js';
import { canUseSyncAccess, PathQueue, readBytes, writeBytes, type OpfsAccess } from './opfs/files.js';
import { opfsPackFolder } from './opfs/pack-folder.js';
import { isPackLogName, openPackStore } from './pack/pack-store.js';
import { makeStat } from './stat.js';
import type { FsDirent, FsStat, WorkspaceFs } from './types.js';

/**
 * The part of the DOM's `FileSystemDirectoryHandle` this entry's types name: pass a real OPFS
 * folder handle. Declared here so that code importing `sandpit-workspace/web` type-checks without
 * the DOM library (a Node-side build, a test runner).
 */
export interface OpfsDirectoryHandle {
  /** always `'directory'` */
  readonly kind: 'directory';
  /** the folder's own name */
  readonly name: string;
  /** a folder inside it, made when `create` is true */
  getDirectoryHandle(name: string, options?: { create?: boolean }): Promise<unknown>;
}

/** Where and how an OPFS backend keeps its files. */
export interface OpfsFsOptions {
  /** a folder below the origin's OPFS root that holds this workspace; absent: the OPFS root itself */
  name?: string;
  /** use this folder (a `FileSystemDirectoryHandle`) instead of the origin's OPFS root (`name` is then looked up inside it) */
  directory?: OpfsDirectoryHandle;
  /** `auto` (default): sync access handles inside a dedicated worker, the async API elsewhere */
  access?: 'sync' | 'async' | 'auto';
  /**
   * How the workspace is stored. `packed`: in one log file written through a sync access handle
   * (workers only), many times faster for small files. `tree`: one OPFS file per file, readable
   * by anything else that looks in OPFS. `auto` (default): an existing workspace keeps its layout;
   * a new one is packed where sync access handles exist and a tree elsewhere.
   */
  layout?: 'auto' | 'packed' | 'tree';
}

/** The async iteration Chromium has and the TypeScript DOM library in use does not declare. */
type IterableDir = FileSystemDirectoryHandle & {
  entries(): AsyncIterableIterator<[string, FileSystemHandle]>;
  keys(): AsyncIterableIterator<string>;
};

type Entry = { kind: 'file'; handle: FileSystemFileHandle } | { kind: 'directory'; handle: FileSystemDirectoryHandle };

/**
 * The layout of the workspace in `top`: what it already holds decides, then what was asked for.
 * Also answers what `top` holds, read on the way, so the tree layout starts knowing it.
 */
async function chooseLayout(
  top: FileSystemDirectoryHandle,
  wanted: 'auto' | 'packed' | 'tree',
  access: OpfsAccess,
): Promise<{ layout: 'packed' | 'tree'; entries: Array<[string, FileSystemHandle]> }> {
  // A packed workspace's folder holds its logs and nothing else; a tree that happens to hold a
  // file of that name is still a tree.
  let logs = false;
  let other = false;
  const entries: Array<[string, FileSystemHandle]> = [];
  for await (const [name, handle] of (top as IterableDir).entries()) {
    entries.push([name, handle]);
    if (isPackLogName(name)) logs = true;
    else other = true;
  }
  const packed = logs && !other;
  if (packed && wanted === 'tree') throw new FsError('EEXIST', 'open (this workspace is stored packed, not as a tree)');
  if (other && wanted === 'packed')
    throw new FsError('EEXIST', 'open (this folder already holds files, so it cannot become a packed workspace)');
  const layout = packed
    ? 'packed'
    : other
      ? 'tree'
      : wanted === 'auto'
        ? access === 'sync'
          ? 'packed'
          : 'tree'
        : wanted;
  if (layout === 'packed' && access !== 'sync')
    throw new FsError('EACCES', 'open (a packed workspace opens only in a dedicated worker, with sync access handles)');
  return { layout, entries };
}

/**
 * A backend in the Origin Private File System. OPFS has no symlinks (symlink fails with EPERM,
 * as on a filesystem without them) and no folder rename, so a folder is moved entry by entry.
 * Handles, folder listings and file sizes are remembered (opfs/cache.ts), so most lookups, misses
 * and stats cost no round trip to the browser.
 */
export async function createOpfsFs(options: OpfsFsOptions = {}): Promise<WorkspaceFs> {
  const base = (options.directory as FileSystemDirectoryHandle | undefined) ?? (await navigator.storage.getDirectory());
  const top = options.name
    ? await translated('open', () => base.getDirectoryHandle(options.name!, { create: true }))
    : base;
  const access: OpfsAccess =
    options.access === 'auto' || !options.access ? (canUseSyncAccess() ? 'sync' : 'async') : options.access;
  const { layout, entries } = await chooseLayout(top, options.layout ?? 'auto', access);
  if (layout === 'packed')
    return translated('open', () =>
      openPackStore(
        opfsPackFolder(
          top,
          undefined,
          entries.map(([name]) => name),
        ),
      ),
    );
  const cache = new OpfsCache(top);
  // The folder was just listed: a name not in it is absent, with no lookup (a new workspace's first files).
  cache.listed(
    '',
    entries.map(([name, handle]) => [name, handle.kind === 'file' ? 'file' : 'directory']),
  );
  for (const [name, handle] of entries) cache.add(name, handle.kind, handle);
  const { dirs, files } = cache;
  const queue = new PathQueue();
  // Folder creation has its own queue: a folder rename holds its paths in `queue` while it creates folders.
  const mkdirQueue = new PathQueue();

  const partsOf = (path: string) => path.split('/').filter((p) => p !== '' && p !== '.');
  const missing = (op: string) => new FsError('ENOENT', op);

  /** The folder at `parts`; a missing component is ENOENT and a file in the way is ENOTDIR. */
  async function dirAt(parts: string[]): Promise<FileSystemDirectoryHandle> {
    let key = parts.join('/');
    const hit = dirs.get(key);
    if (hit) return hit;
    let i = parts.length;
    while (i > 0 && !dirs.has(parts.slice(0, i).join('/'))) i--;
    let dir = dirs.get(parts.slice(0, i).join('/'))!;
    for (; i < parts.length; i++) {
      key = parts.slice(0, i + 1).join('/');
      const kind = cache.kindOf(key);
      if (kind === null) throw missing('lookup');
      if (kind === 'file') throw new FsError('ENOTDIR', 'lookup');
      try {
        dir = await dir.getDirectoryHandle(parts[i]!);
      } catch (error) {
        throw new FsError(fsCodeOf(error), 'lookup');
      }
      cache.add(key, 'directory', dir);
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
    const kind = cache.kindOf(key);
    if (kind === null) throw missing('lookup');
    if (kind !== 'directory') {
      try {
        const handle = await parent.getFileHandle(name);
        cache.add(key, 'file', handle);
        return { kind: 'file', handle };
      } catch (error) {
        if ((error as { name?: string }).name !== 'TypeMismatchError') throw error;
      }
    }
    const handle = await parent.getDirectoryHandle(name);
    cache.add(key, 'directory', handle);
    return { kind: 'directory', handle };
  }

  async function hasEntries(dir: FileSystemHandle): Promise<boolean> {
    for await (const _ of (dir as IterableDir).keys()) return true;
    return false;
  }

  const exists = (parts: string[]) =>
    entryAt(parts).then(
      (e) => e,
      (e) => (fsCodeOf(e) === 'ENOENT' ? null : Promise.reject(e)),
    );

  async function statOf(parts: string[]): Promise<FsStat> {
    const entry = await entryAt(parts);
    if (entry.kind === 'directory') return makeStat('dir', {});
    const key = parts.join('/');
    const known = cache.fileStat(key);
    if (known) return makeStat('file', known);
    const file = await entry.handle.getFile();
    cache.setFileStat(key, file.size, file.lastModified, file);
    return makeStat('file', { size: file.size, mtimeMs: file.lastModified });
  }

  async function list(path: string): Promise<FsDirent[]> {
    const entry = await entryAt(partsOf(path));
    if (entry.kind !== 'directory') throw new FsError('ENOTDIR', 'readdir');
    const known = cache.listing(partsOf(path).join('/'));
    if (known) return known.map(([name, kind]) => ({ name, type: kind === 'file' ? 'file' : 'dir' }));
    const out: FsDirent[] = [];
    for await (const [name, handle] of (entry.handle as IterableDir).entries())
      out.push({ name, type: handle.kind === 'file' ? 'file' : 'dir' });
    cache.listed(
      partsOf(path).join('/'),
      out.map((d) => [d.name, d.type === 'file' ? 'file' : 'directory']),
    );
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
      cache.add(
        parts.join('/'),
        'directory',
        await parent.getDirectoryHandle(parts[parts.length - 1]!, { create: true }),
        true,
      );
    });
  }

  async function remove(parts: string[], want: 'file' | 'directory'): Promise<void> {
    const entry = await entryAt(parts);
    if (parts.length === 0) throw new FsError('EBUSY', 'rmdir');
    if (entry.kind !== want)
      throw new FsError(want === 'file' ? 'EISDIR' : 'ENOTDIR', want === 'file' ? 'unlink' : 'rmdir');
    if (want === 'directory') {
      // A listing the cache holds answers without a round trip; were it ever behind, OPFS itself
      // refuses to remove a folder that is not empty (InvalidModificationError, ENOTEMPTY).
      const known = cache.listing(parts.join('/'));
      if (known ? known.length > 0 : await hasEntries(entry.handle)) throw new FsError('ENOTEMPTY', 'rmdir');
    }
    await (await dirAt(parts.slice(0, -1))).removeEntry(parts[parts.length - 1]!);
    cache.remove(parts.join('/'));
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
    if (src.kind === 'file') {
      const movable = src.handle as FileSystemFileHandle & {
        move?(dir: FileSystemDirectoryHandle, name: string): Promise<void>;
      };
      cache.remove(key);
      cache.remove(toKey);
      if (movable.move) await movable.move(destDir, name);
      else {
        await writeBytes(await destDir.getFileHandle(name, { create: true }), await readBytes(src.handle), access);
        await (await dirAt(from.slice(0, -1))).removeEntry(from[from.length - 1]!);
      }
      cache.add(toKey, 'file', await destDir.getFileHandle(name));
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
    const key = parts.join('/');
    const kind = cache.kindOf(key);
    if (kind === 'directory') throw new FsError('EISDIR', 'writeFile');
    let handle = files.get(key);
    let created = false;
    if (!handle && kind !== null) {
      try {
        handle = await parent.getFileHandle(name);
      } catch (error) {
        const n = (error as { name?: string }).name;
        if (n === 'TypeMismatchError') throw new FsError('EISDIR', 'writeFile');
        if (n !== 'NotFoundError') throw error;
      }
    }
    if (!handle) {
      handle = await parent.getFileHandle(name, { create: true });
      created = true;
    }
    // the size this adapter last wrote or read, so an overwrite need not ask the browser for it
    const sizeNow = created ? undefined : cache.fileStat(key)?.size;
    cache.forgetStat(key);
    const since = cache.readStarts();
    try {
      await writeBytes(handle, bytes, access, created, sizeNow);
    } catch (error) {
      // A file this call made is removed again; if even that fails, its presence is no longer known.
      if (created)
        await parent.removeEntry(name).then(
          () => cache.remove(key),
          () => cache.unsure(key),
        );
      throw error;
    }
    cache.add(key, 'file', handle);
    cache.setFileStat(key, bytes.length, Date.now());
    cache.keepBytes(key, bytes, since);
  }

  const key = (path: string) => partsOf(path).join('/');
  /** A stat the cache can answer, with nothing in flight on that path, skips the queue (a rescan stats every file). */
  const statQueued = (path: string): Promise<FsStat> => {
    const k = key(path);
    const kind = queue.idle(k) ? cache.kindOf(k) : undefined;
    if (kind === 'directory') return Promise.resolve(makeStat('dir', {}));
    const known = kind === 'file' ? cache.fileStat(k) : undefined;
    if (known) return Promise.resolve(makeStat('file', known));
    return queue.run(k, () => statOf(partsOf(path)));
  };
  const fs: WorkspaceFs = {
    readFile: (path) =>
      translated('readFile', () =>
        queue.run(key(path), async () => {
          const parts = partsOf(path);
          const k = parts.join('/');
          const kept = cache.kindOf(k) === 'file' ? cache.bytesOf(k) : undefined;
          if (kept) return kept;
          // a folder above may move while this read is on its way (its own lock, not this key's)
          const since = cache.readStarts();
          const bytes = await readBytes(await file(parts, 'readFile'), cache.takeSnapshot(k));
          cache.keepBytes(k, bytes, since);
          return bytes;
        }),
      ),
    writeFile: (path, data) =>
      translated('writeFile', () =>
        queue.run(key(path), () =>
          write(partsOf(path), typeof data === 'string' ? new TextEncoder().encode(data) : data),
        ),
      ),
    readdir: (path) => translated('readdir', async () => (await list(path)).map((d) => d.name)),
    readdirTypes: (path) => translated('readdir', () => list(path)),
    stat: (path) => translated('stat', () => statQueued(path)),
    lstat: (path) => translated('lstat', () => statQueued(path)),
    mkdir: (path, o) => translated('mkdir', () => mkdir(partsOf(path), o?.recursive ?? false)),
    rmdir: (path) => translated('rmdir', () => remove(partsOf(path), 'directory')),
    unlink: (path) => translated('unlink', () => queue.run(key(path), () => remove(partsOf(path), 'file'))),
    rename: (from, to) =>
      translated('rename', () => queue.runAll([key(from), key(to)], () => move(partsOf(from), partsOf(to)))),
    readlink: (path) =>
      translated('readlink', async () => {
        await entryAt(partsOf(path));
        throw new FsError('EINVAL', 'readlink');
      }),
    symlink: () =>
      translated('symlink', async () => {
        throw new FsError('EPERM', 'symlink');
      }),
    capabilities: { symlinks: false, atomicRename: true },
  };
  return fs;
}
