import LightningFS from '@isomorphic-git/lightning-fs';
import { FsError, translated } from './errors.js';
import { IdbFileStore } from './indexeddb/file-store.js';
import { tuneLightningTree } from './indexeddb/tree.js';
import { makeStat } from './stat.js';
import { requestedMode, type FsDirent, type FsStat, type WorkspaceFs } from './types.js';

/** Where an IndexedDB backend keeps its files. */
export interface IndexedDbFsOptions {
  /** the IndexedDB database name; several workspaces live side by side under different names */
  name: string;
  /** start empty, deleting whatever the database held */
  wipe?: boolean;
}

/** A WorkspaceFs that also persists its directory tree on demand. */
export interface IndexedDbFs extends WorkspaceFs {
  /** Write the directory tree (lightning-fs's superblock) now instead of after its 500 ms debounce. */
  flush(): Promise<void>;
}

interface LightningStat {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs?: number;
  uid: number;
  gid: number;
}

/**
 * A backend in IndexedDB over lightning-fs. lightning-fs is loose where Node is strict (unlink
 * removes folders, readFile of a folder returns null, a file in the middle of a path is ENOENT,
 * rename clobbers anything), so each operation checks first and fails as Node would.
 */
export function createIndexedDbFs(options: IndexedDbFsOptions): IndexedDbFs {
  // lightning-fs's own names for its store: a database made before this store opens unchanged
  const db = new IdbFileStore(options.name, `${options.name}_files`);
  const lfs = new LightningFS(options.name, { wipe: options.wipe ?? false, db });
  const p = lfs.promises as unknown as Record<string, (...args: unknown[]) => Promise<any>>;
  // lightning-fs makes its tree in init(), started by the constructor; this runs before any
  // operation's own wait for that init, so every operation sees the tuned tree
  const internals = lfs.promises as unknown as { _initPromise?: Promise<unknown>; _backend?: { _cache?: unknown } };
  void internals._initPromise?.then(
    () => tuneLightningTree(internals._backend?._cache),
    () => {},
  );
  let dirty = false;
  /** A change to the tree: remembered so flush() writes the superblock only when it has news. */
  const changing = <T>(op: string, run: () => Promise<T>) =>
    translated(op, () => {
      dirty = true;
      return run();
    });

  const rawLstat = async (path: string): Promise<LightningStat | null> => {
    try {
      return (await p.lstat!(path)) as LightningStat;
    } catch {
      return null;
    }
  };
  const toStat = (s: LightningStat): FsStat =>
    makeStat(s.type, {
      mode: s.mode,
      size: s.size,
      ino: s.ino,
      mtimeMs: s.mtimeMs,
      ctimeMs: s.ctimeMs ?? s.mtimeMs,
      uid: s.uid,
      gid: s.gid,
    });

  /** Why a path does not resolve: a missing component (ENOENT) or a file used as a folder (ENOTDIR). */
  const missing = async (path: string, op: string): Promise<never> => {
    // the usual case, a name missing from a folder that is there, in one look-up: a walk from the
    // root for every missing .gitignore made a deep tree's rescan cost the depth squared
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if ((await statOrNull(parent))?.type === 'dir') throw new FsError('ENOENT', op);
    const parts = path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const s = await statOrNull(`/${parts.slice(0, i).join('/')}`);
      if (!s) break;
      if (s.type !== 'dir') throw new FsError('ENOTDIR', op);
    }
    throw new FsError('ENOENT', op);
  };
  const statOrNull = async (path: string): Promise<LightningStat | null> => {
    try {
      return (await p.stat!(path)) as LightningStat;
    } catch {
      return null;
    }
  };
  const parentDir = async (path: string, op: string): Promise<void> => {
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    const s = await statOrNull(parent);
    if (!s) await missing(parent, op);
    else if (s.type !== 'dir') throw new FsError('ENOTDIR', op);
  };

  const fs: IndexedDbFs = {
    readFile: (path) =>
      translated('readFile', async () => {
        const s = await statOrNull(path);
        if (!s) return missing(path, 'readFile');
        if (s.type === 'dir') throw new FsError('EISDIR', 'readFile');
        const data = (await p.readFile!(path)) as Uint8Array | null;
        if (!data) throw new FsError('EIO', 'readFile');
        return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      }),
    writeFile: (path, data, options) =>
      changing('writeFile', async () => {
        const s = await statOrNull(path);
        if (s?.type === 'dir') throw new FsError('EISDIR', 'writeFile');
        if (!s) await parentDir(path, 'writeFile');
        try {
          const mode = requestedMode(options);
          // lightning-fs keeps an existing file's mode unless one is given, and sets it when it is.
          await p.writeFile!(
            path,
            typeof data === 'string' ? new TextEncoder().encode(data) : data,
            ...(mode === undefined ? [] : [{ mode }]),
          );
        } catch (error) {
          // lightning-fs records the new entry before it stores the bytes: undo that record. For an
          // existing file the old bytes are still stored, and reading them corrects the recorded size.
          if (!s) await p.unlink!(path).catch(() => {});
          else await p.readFile!(path).catch(() => {});
          throw error;
        }
      }),
    readdir: (path) => translated('readdir', () => listDir(path)),
    readdirTypes: (path) =>
      translated('readdir', async () => {
        const names = await listDir(path);
        const base = path.endsWith('/') ? path : `${path}/`;
        return Promise.all(
          names.map(
            async (name): Promise<FsDirent> => ({ name, type: (await rawLstat(base + name))?.type ?? 'other' }),
          ),
        );
      }),
    stat: (path) => translated('stat', async () => toStat((await statOrNull(path)) ?? (await missing(path, 'stat')))),
    lstat: (path) => translated('lstat', async () => toStat((await rawLstat(path)) ?? (await missing(path, 'lstat')))),
    mkdir: (path, opts) => changing('mkdir', () => mkdir(path, opts?.recursive ?? false)),
    rmdir: (path) =>
      changing('rmdir', async () => {
        const s = await rawLstat(path);
        if (!s) return missing(path, 'rmdir');
        if (s.type !== 'dir') throw new FsError('ENOTDIR', 'rmdir');
        await p.rmdir!(path);
      }),
    unlink: (path) =>
      changing('unlink', async () => {
        const s = await rawLstat(path);
        if (!s) return missing(path, 'unlink');
        if (s.type === 'dir') throw new FsError('EISDIR', 'unlink');
        await p.unlink!(path);
      }),
    rename: (from, to) => changing('rename', () => rename(from, to)),
    readlink: (path) =>
      translated('readlink', async () => {
        const s = await rawLstat(path);
        if (!s) return missing(path, 'readlink');
        if (s.type !== 'symlink') throw new FsError('EINVAL', 'readlink');
        return String(await p.readlink!(path));
      }),
    symlink: (target, path) =>
      changing('symlink', async () => {
        if (await rawLstat(path)) throw new FsError('EEXIST', 'symlink');
        await parentDir(path, 'symlink');
        await p.symlink!(target, path);
      }),
    flush: () =>
      translated('flush', async () => {
        if (!dirty) return;
        dirty = false;
        await p.flush!();
      }),
    capabilities: { symlinks: true, atomicRename: true, modes: true },
  };

  async function listDir(path: string): Promise<string[]> {
    const s = await statOrNull(path);
    if (!s) return missing(path, 'readdir');
    if (s.type !== 'dir') throw new FsError('ENOTDIR', 'readdir');
    return (await p.readdir!(path)) as string[];
  }

  async function mkdir(path: string, recursive: boolean): Promise<void> {
    const s = await rawLstat(path);
    if (s) {
      if (recursive && s.type === 'dir') return;
      throw new FsError('EEXIST', 'mkdir');
    }
    const parent = path.slice(0, path.lastIndexOf('/')) || '/';
    if (recursive && parent !== path && !(await statOrNull(parent))) await mkdir(parent, true);
    else await parentDir(path, 'mkdir');
    await p.mkdir!(path);
  }

  async function rename(from: string, to: string): Promise<void> {
    const src = await rawLstat(from);
    if (!src) return missing(from, 'rename');
    if (to === from) return;
    if (to.startsWith(`${from}/`)) throw new FsError('EINVAL', 'rename');
    await parentDir(to, 'rename');
    const dest = await rawLstat(to);
    if (dest) {
      if (src.type === 'dir' && dest.type !== 'dir') throw new FsError('ENOTDIR', 'rename');
      if (src.type !== 'dir' && dest.type === 'dir') throw new FsError('EISDIR', 'rename');
      if (dest.type === 'dir' && ((await p.readdir!(to)) as string[]).length > 0)
        throw new FsError('ENOTEMPTY', 'rename');
      // lightning-fs would drop the replaced entry from the tree but leave its bytes in the database.
      if (dest.type === 'dir') await p.rmdir!(to);
      else await p.unlink!(to);
    }
    if (src.type === 'symlink') {
      // lightning-fs resolves the last component of a rename, so it would move the link's target.
      const target = String(await p.readlink!(from));
      await p.unlink!(from);
      await p.symlink!(target, to);
      return;
    }
    await p.rename!(from, to);
  }

  return fs;
}
