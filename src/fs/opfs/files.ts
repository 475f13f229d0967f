/**
 * How the OPFS adapter writes a file's bytes. A sync access handle (dedicated workers only) skips
 * the swap file that `createWritable` writes and renames on close, which is what makes it faster.
 */
export type OpfsAccess = 'sync' | 'async';

interface SyncHandle {
  getSize(): number;
  read(buffer: Uint8Array, options?: { at?: number }): number;
  write(buffer: Uint8Array, options?: { at?: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}
type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle(): Promise<SyncHandle> };

/** Whether this realm can open sync access handles: a dedicated worker in a browser that has them. */
export function canUseSyncAccess(): boolean {
  const g = globalThis as { WorkerGlobalScope?: unknown; FileSystemFileHandle?: { prototype: object } };
  return (
    g.WorkerGlobalScope !== undefined &&
    g.FileSystemFileHandle !== undefined &&
    'createSyncAccessHandle' in g.FileSystemFileHandle.prototype
  );
}

/**
 * Read a whole file. `getFile()` is used in both modes: opening a sync access handle costs as
 * much as the read it saves, and a File snapshot takes no exclusive lock. `fetched` is a File the
 * caller got from this handle a moment ago (for the stat that preceded the read).
 */
export async function readBytes(handle: FileSystemFileHandle, fetched?: File): Promise<Uint8Array> {
  return new Uint8Array(await (fetched ?? (await handle.getFile())).arrayBuffer());
}

/**
 * Replace a file's bytes. Either way a failure (a full quota above all) leaves the old bytes.
 * The async path writes a swap file that replaces the file on close. The sync path first grows
 * the file to its new size, which is where quota is granted: Chromium's sync `write` past the
 * quota writes what fits and reports a bogus count, and `truncate` past it silently does nothing,
 * so the size is checked, and only then are the bytes written, in space already granted.
 * A file the caller has just created (`fresh`) has no old bytes to keep, so it is written at once
 * and its size checked after (and, when empty, not opened at all); the caller removes it if that fails. Each step on a sync handle is
 * a round trip to the browser in a private window, so every one saved counts.
 * No `flush()` (an fsync): like IndexedDB's default durability, a write survives a crash of the
 * tab or the browser, not of the machine. `sizeNow`: the file's size as the caller knows it (the
 * OPFS adapter is its files' only writer), which spares the sync path a `getSize` before an
 * overwrite; unknown, it is asked for.
 */
export async function writeBytes(
  handle: FileSystemFileHandle,
  data: Uint8Array,
  access: OpfsAccess,
  fresh = false,
  sizeNow?: number,
): Promise<void> {
  // A file just created is already empty: nothing to open (a marker file, an empty file made by a tool).
  if (fresh && data.length === 0) return;
  if (access === 'sync') {
    const h = await (handle as SyncCapable).createSyncAccessHandle();
    try {
      if (fresh) {
        const written = h.write(data, { at: 0 });
        if (written !== data.length || h.getSize() !== data.length)
          throw new DOMException('the storage quota is full', 'QuotaExceededError');
        return;
      }
      const before = sizeNow ?? h.getSize();
      if (data.length > before) {
        h.truncate(data.length);
        if (h.getSize() !== data.length) {
          h.truncate(before);
          throw new DOMException('the storage quota is full', 'QuotaExceededError');
        }
      }
      const written = h.write(data, { at: 0 });
      if (written !== data.length) throw new DOMException('short write', 'QuotaExceededError');
      if (before > data.length) h.truncate(data.length);
    } finally {
      h.close();
    }
    return;
  }
  const writable = await handle.createWritable({ keepExistingData: false });
  try {
    await writable.write(data as Uint8Array<ArrayBuffer>);
    await writable.close();
  } catch (error) {
    await writable.abort().catch(() => {});
    throw error;
  }
}

/**
 * Serialises work per path: a sync access handle is exclusive, so two overlapping reads of one
 * file (isomorphic-git does that) would otherwise fail with NoModificationAllowedError.
 */
export class PathQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(path: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(path) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => {});
    this.tails.set(path, tail);
    void tail.then(() => {
      if (this.tails.get(path) === tail) this.tails.delete(path);
    });
    return result;
  }

  /** Whether nothing is running or waiting on `path`. */
  idle(path: string): boolean {
    return !this.tails.has(path);
  }

  /** Run with every given path held, taken in sorted order so two renames cannot deadlock. */
  runAll<T>(paths: string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(paths)].sort();
    const step = (i: number): Promise<T> => (i === sorted.length ? work() : this.run(sorted[i]!, () => step(i + 1)));
    return step(0);
  }
}
