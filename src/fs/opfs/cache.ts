import { KeptBytes } from '../kept-bytes.js';

/** What an OPFS entry is; the handle API names a folder `directory`. */
export type OpfsKind = 'file' | 'directory';

interface KnownFile {
  size: number;
  mtimeMs: number;
}

const split = (key: string): [string, string] => {
  const i = key.lastIndexOf('/');
  return i === -1 ? ['', key] : [key.slice(0, i), key.slice(i + 1)];
};

/**
 * What the OPFS adapter knows about its tree without asking the browser: every handle lookup,
 * `getFile()` and miss is a round trip to the browser process (all of them are, in a private
 * window). It is only sound because this adapter is the tree's only writer: the workspace lock in
 * web/ keeps a second tab out, and the adapter records each change it makes here.
 * Keys are root-relative paths without a leading slash; '' is the root.
 */
export class OpfsCache {
  readonly dirs = new Map<string, FileSystemDirectoryHandle>();
  readonly files = new Map<string, FileSystemFileHandle>();
  /** Folders whose every entry is known (made by this adapter, or listed): a name not here is absent. */
  private readonly listings = new Map<string, Map<string, OpfsKind>>();
  private readonly known = new Map<string, KnownFile>();
  /** The `File` of the last stat, so the read that follows a stat asks the browser once, not twice. */
  private snapshot: { key: string; file: File } | null = null;
  /**
   * The bytes of small files this adapter wrote or read, so reading one again asks the browser
   * nothing (a read is `getFile` and `arrayBuffer`, two round trips).
   */
  private readonly contents = new KeptBytes<string>();

  constructor(top: FileSystemDirectoryHandle) {
    this.dirs.set('', top);
  }

  /** 'file' or 'directory' when known, null when known to be absent, undefined when unknown. */
  kindOf(key: string): OpfsKind | null | undefined {
    if (this.dirs.has(key)) return 'directory';
    if (this.files.has(key)) return 'file';
    const [parent, name] = split(key);
    const listing = this.listings.get(parent);
    return listing ? (listing.get(name) ?? null) : undefined;
  }

  /** An entry found or made at `key`; `fresh` marks a folder just created, so it is known empty. */
  add(key: string, kind: OpfsKind, handle: FileSystemHandle, fresh = false): void {
    if (kind === 'directory') this.dirs.set(key, handle as FileSystemDirectoryHandle);
    else this.files.set(key, handle as FileSystemFileHandle);
    const [parent, name] = split(key);
    this.listings.get(parent)?.set(name, kind);
    if (fresh && kind === 'directory') this.listings.set(key, new Map());
  }

  /** The entries of a folder whose listing is known, or undefined. */
  listing(key: string): Array<[string, OpfsKind]> | undefined {
    const listing = this.listings.get(key);
    return listing && [...listing];
  }

  listed(key: string, entries: Iterable<[string, OpfsKind]>): void {
    this.listings.set(key, new Map(entries));
  }

  /** `key` and everything below it are gone. */
  remove(key: string): void {
    const below = `${key}/`;
    for (const map of [this.dirs, this.files, this.listings, this.known] as Map<string, unknown>[]) {
      for (const k of map.keys()) if (k === key || k.startsWith(below)) map.delete(k);
    }
    this.contents.changingWhere((k) => k === key || k.startsWith(below));
    const [parent, name] = split(key);
    this.listings.get(parent)?.delete(name);
    this.snapshot = null;
  }

  /** Whether `key` exists is no longer known (a removal that may have failed). */
  unsure(key: string): void {
    this.remove(key);
    this.listings.delete(split(key)[0]);
  }

  forgetStat(key: string): void {
    this.known.delete(key);
    this.contents.changing(key);
    if (this.snapshot?.key === key) this.snapshot = null;
  }

  fileStat(key: string): KnownFile | undefined {
    return this.known.get(key);
  }

  /** The size and time of a file this adapter just wrote, or just looked up (`snapshot`). */
  setFileStat(key: string, size: number, mtimeMs: number, snapshot?: File): void {
    this.known.set(key, { size, mtimeMs });
    this.snapshot = snapshot ? { key, file: snapshot } : null;
  }

  /** A copy of the bytes of `key` when they are kept, or undefined. */
  bytesOf(key: string): Uint8Array | undefined {
    return this.contents.bytesOf(key);
  }

  /** Where a read starting now stands: what it hands to `keepBytes` when it ends. */
  readStarts(): number {
    return this.contents.now();
  }

  /**
   * Keep a copy of `bytes` as the content of `key` (a file written or read from `since` on),
   * unless `key` or a folder above it changed meanwhile.
   */
  keepBytes(key: string, bytes: Uint8Array, since: number): void {
    this.contents.keep(key, bytes, since);
  }

  /** The `File` the last stat of `key` fetched, handed out once. */
  takeSnapshot(key: string): File | undefined {
    const held = this.snapshot;
    this.snapshot = null;
    return held?.key === key ? held.file : undefined;
  }
}
