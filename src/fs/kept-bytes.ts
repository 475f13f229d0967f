/** Files up to this size are kept; a larger one (a snapshot pack) is always read from the database. */
const KEEP_FILE_BYTES = 64 * 1024;
/** All kept files together stay under this; the file used longest ago goes first. */
const KEEP_TOTAL_BYTES = 4 * 1024 * 1024;

/**
 * The bytes of small files, so reading a file again asks the browser's storage nothing: an
 * IndexedDB read is a transaction, an OPFS read two round trips to the browser process, and a
 * workspace reads back what it just wrote all the time (the snapshot branch before each commit, a
 * file a check reads after a tool wrote it). Sound only for a store's one writer. Both browser
 * stores use it (the OPFS adapter from here: src/fs/ is at the layer test's 25 files).
 * Every write, removal and clear takes the next number of a counter: a read or write puts its
 * bytes here only if nothing changed that key since it started, so bytes on their way never
 * overtake newer ones.
 */
export class KeptBytes<K> {
  /** oldest use first (a Map keeps insertion order) */
  private readonly held = new Map<K, Uint8Array>();
  /** the number of the last write or removal of each key, and of the last clear */
  private readonly changed = new Map<K, number>();
  private cleared = 0;
  private count = 0;
  private total = 0;

  /** A copy of the kept bytes of `key`, or undefined. */
  bytesOf(key: K): Uint8Array | undefined {
    const bytes = this.held.get(key);
    if (!bytes) return undefined;
    this.held.delete(key);
    this.held.set(key, bytes);
    return bytes.slice();
  }

  /** Where the counter is: what a read starting now hands to `keep` when it ends. */
  now(): number {
    return this.count;
  }

  /** A write or removal of `key` starts: what is kept of it is no longer sure. What the write hands to `keep`. */
  changing(key: K): number {
    this.drop(key);
    this.changed.set(key, ++this.count);
    return this.count;
  }

  /** Keep a copy of `bytes` for `key`, unless it changed (or all was cleared) after `since`. */
  keep(key: K, bytes: Uint8Array, since: number): void {
    if ((this.changed.get(key) ?? 0) > since || this.cleared > since) return;
    this.drop(key);
    if (bytes.length > KEEP_FILE_BYTES) return;
    this.held.set(key, bytes.slice());
    this.total += bytes.length;
    for (const [k, old] of this.held) {
      if (this.total <= KEEP_TOTAL_BYTES) break;
      this.held.delete(k);
      this.total -= old.length;
    }
  }

  /**
   * Every key `test` accepts is changing (a folder removed or moved with what is below it), and so
   * is any read on its way now, whatever its key: one under the folder may not be held yet.
   */
  changingWhere(test: (key: K) => boolean): void {
    for (const key of [...this.held.keys()]) if (test(key)) this.drop(key);
    this.cleared = ++this.count;
  }

  clear(): void {
    this.held.clear();
    this.changed.clear();
    this.total = 0;
    this.cleared = ++this.count;
  }

  private drop(key: K): void {
    const bytes = this.held.get(key);
    if (!bytes) return;
    this.held.delete(key);
    this.total -= bytes.length;
  }
}
