import type { LiteralBytes } from './literal-lines.js';
import type { SpecialKind } from './special.js';
/** What `stat`/`lstat` return: the fields isomorphic-git and the tools read. */
export interface FsStat {
  /** `'file'`, `'dir'` or `'symlink'` (lstat only; stat follows links) */
  type: 'file' | 'dir' | 'symlink';
  /** POSIX type and permission bits (`0o100644`, `0o100755`, `0o40755`, `0o120777`); only the executable bit is read, and only with `capabilities.modes` */
  mode: number;
  /** the file's length in bytes (0 is fine for a folder) */
  size: number;
  /** a number that tells two entries apart (a rescan's stat cache keys on it with `mtimeMs`) */
  ino: number;
  /** last change of the content, in ms; it must move on every write */
  mtimeMs: number;
  /** last change of content or metadata, in ms (the same as `mtimeMs` is fine) */
  ctimeMs: number;
  /** recorded in git's index; any constant works */
  uid: number;
  /** recorded in git's index; any constant works */
  gid: number;
  /** recorded in git's index; any constant works */
  dev: number;
  /** hard links to the file, where the backend knows (a file linked from outside the workspace has more than one) */
  nlink?: number;
  /** set when the entry is a FIFO, socket or device (its `type` is then `'file'`): tools never read it, snapshots skip it */
  special?: SpecialKind;
  /** `type` is `'file'` */
  isFile(): boolean;
  /** `type` is `'dir'` */
  isDirectory(): boolean;
  /** `type` is `'symlink'` */
  isSymbolicLink(): boolean;
}

/** A directory entry with its type, as `readdir(..., { withFileTypes: true })` gives it. */
export interface FsDirent {
  /** the entry's name in its folder */
  name: string;
  /** what it is, without following a link */
  type: 'file' | 'dir' | 'symlink' | 'other';
}

/** A folder entry with its lstat, as `readdirStats` gives it. */
export interface FsDirentStat {
  /** the entry's name in its folder */
  name: string;
  /** its lstat; null when that lstat failed for another reason than the entry being gone (the caller's own lstat then says why) */
  stat: FsStat | null;
}

/**
 * The async filesystem every backend implements: a small subset of Node's `fs.promises`, with
 * one signature per method, so a plain object of ordinary async functions implements it with no
 * cast. Paths are absolute POSIX paths. Failures are errors carrying a Node `code`
 * (ENOENT, EEXIST, EISDIR, ENOTDIR, ENOTEMPTY, EACCES, ENOSPC, EIO). To hand a backend to
 * isomorphic-git, wrap it with {@link gitFsClient}, which adds the text reads git asks for.
 */
export interface WorkspaceFs {
  /** The file's bytes, a copy the caller may change (a folder is EISDIR). */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * `options.mode`, when given, sets the file's permission bits, new file or not (a git checkout
   * passes 0o755 or 0o644); without it an existing file keeps its mode and a new one is not
   * executable. Backends without modes (`capabilities.modes` not true) ignore it.
   */
  writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void>;
  /** The names in a folder (not `.` or `..`), in any order. */
  readdir(path: string): Promise<string[]>;
  /** The entry's stat, links followed. */
  stat(path: string): Promise<FsStat>;
  /** The entry's own stat: a link is reported as a link. */
  lstat(path: string): Promise<FsStat>;
  /** Make a folder (EEXIST if something is there); `recursive` makes missing parents and accepts an existing folder. */
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  /** Remove an empty folder (ENOTEMPTY otherwise). */
  rmdir(path: string): Promise<void>;
  /** Remove a file or a link (not what it points to). */
  unlink(path: string): Promise<void>;
  /** Move an entry; an existing file at `to` is replaced. */
  rename(from: string, to: string): Promise<void>;
  /** A link's target, as stored. */
  readlink(path: string): Promise<string>;
  /** Make a link at `path` pointing to `target` (EPERM from a backend without links). */
  symlink(target: string, path: string): Promise<void>;
  /** Optional fast path for directory walks; callers fall back to readdir + lstat. */
  readdirTypes?(path: string, options?: ResolveOptions): Promise<FsDirent[]>;
  /**
   * Optional fast path for a walk that needs every entry's lstat (a rescan): the folder's entries,
   * in any order, each with its lstat, the folder resolved once instead of once per entry. An entry
   * gone between the listing and its lstat is left out. Fails as `readdir` does; callers fall back
   * to readdir + lstat.
   */
  readdirStats?(path: string): Promise<FsDirentStat[]>;
  /**
   * Optional fast path for a confined read: `base/rel` when no component of `rel` is a symbolic
   * link and the last is a regular file, as its lstat plus its bytes (null bytes when it is larger
   * than `maxBytes`). Resolves null in every other case (missing, a link anywhere in `rel`, not a
   * regular file, unreadable), and the caller then resolves the path the slow way.
   */
  readPlainFile?(base: string, rel: string, maxBytes: number): Promise<PlainFile | null>;
  /**
   * Optional fast path for many reads in one folder (a search): readPlainFile of each of `names`
   * (plain names in folder `base`), answered together, in order, with the folder resolved once.
   * A backend may read them in parallel. Null where readPlainFile would be null.
   */
  readPlainFiles?(
    base: string,
    names: readonly string[],
    maxBytes: number,
    options?: PlainReadOptions,
  ): Promise<Array<PlainFile | null>>;
  /**
   * Optional: write `data` (at least `currentSize` bytes) over an existing regular file that holds
   * exactly `currentSize` bytes, in place: no temporary file, no rename, so no atomicity either.
   * Callers use it only where a crash cannot expose a torn file: a spare file not yet renamed into
   * place, or a one-sector record that keeps its size (a git ref). Resolves false, changing
   * nothing, when the file is missing, is a link or has another size.
   */
  writeInPlace?(path: string, data: Uint8Array, currentSize: number): Promise<boolean>;
  /**
   * Optional: a feed of the paths changed below folder `dir` from now on, however they changed
   * (a tool, a process, the user), so a rescan looks at those paths instead of every file. Null
   * where the backend cannot watch that folder. The caller closes it.
   */
  watchChanges?(dir: string, options?: WatchOptions): ChangeFeed | null;
  /** Optional native code of the platform the backend runs on; without it portable code is used. */
  readonly native?: NativeHelpers;
  /**
   * Optional: let go of what the backend holds open (the packed OPFS log's access handle). The
   * owner of the backend calls it after the workspace is closed; later calls fail with EIO.
   */
  close?(): Promise<void>;
  /** What the backend can do; absent means all true. */
  readonly capabilities?: FsCapabilities;
}

/** What {@link WorkspaceFs.watchChanges} is asked to leave out. */
export interface WatchOptions {
  /** folder names not looked into, at any depth (the feed then names them in `unwatched`) */
  skip?: readonly string[];
  /** a folder directly below the watched one where the feed may write and remove files of its own (`.sandpit`) */
  scratch?: string;
}

/**
 * The changes a backend saw below one folder (see {@link WorkspaceFs.watchChanges}). A path is
 * named when anything at it was created, written, removed, renamed, or changed mode; a folder
 * named stands for everything below it.
 */
export interface ChangeFeed {
  /**
   * The paths (relative to the watched folder) changed since the previous take: every change
   * made before this call is in the answer. Null when the feed cannot vouch for that (not ready
   * yet, too many changes at once, a failure, closed): the caller then looks at everything
   * itself, and the next take answers for the changes made after this one returned.
   */
  take(): Promise<string[] | null>;
  /** folders below (relative paths) the feed does not look into: whatever is below them may change unseen */
  unwatched?(): Iterable<string>;
  /** Stop watching; every later take answers null. */
  close(): void;
}

/** What {@link NativeHelpers.inflatePrefix} gives back. */
export interface InflatedPrefix {
  /** the inflated object */
  bytes: Uint8Array;
  /** how many bytes of the input the compressed stream took */
  read: number;
}

/** Synchronous helpers a platform does faster natively than portable code (Node's zlib and crypto). */
export interface NativeHelpers {
  /** zlib compression (RFC 1950), for git objects */
  deflate(data: Uint8Array): Uint8Array;
  /** optional: `deflate` on the platform's worker threads, so many objects compress beside the caller's work */
  deflateAsync?(data: Uint8Array): Promise<Uint8Array>;
  /** optional: zlib decompression of one whole stream, for reading git objects without a stream round trip */
  inflate?(data: Uint8Array): Uint8Array;
  /**
   * optional: zlib decompression of the stream at the start of `data`, which may go on past its
   * end (a pack's next object), into `size` bytes: the bytes, and how many of `data` the stream
   * took. Throws when the stream is damaged, cut short or inflates to more than `size` bytes.
   */
  inflatePrefix?(data: Uint8Array, size: number): InflatedPrefix;
  /** lower-case hex SHA-256 */
  sha256Hex(data: Uint8Array): string;
  /** optional: lower-case hex SHA-1 of the parts one after the other (git object ids, without copying them together) */
  sha1Hex?(parts: Uint8Array[]): string;
  /** optional: index of `byte` in `bytes` at or after `from`, or -1 (a search jumps between rare bytes with it) */
  indexOfByte?(bytes: Uint8Array, byte: number, from: number): number;
  /** optional: whether `bytes` are valid UTF-8 (a search checks each file with a match) */
  isUtf8?(bytes: Uint8Array): boolean;
}

/** What `readPlainFile` returns: the file's lstat, and its bytes unless it is over the size asked for. */
export interface PlainFile {
  /** the file's lstat */
  stat: FsStat;
  /**
   * its bytes, or null when it is larger than asked for; with PlainReadOptions.literal, a backend
   * may leave them out (empty) of a file it found without the literal (`literalLines` empty)
   */
  bytes: Uint8Array | null;
  /**
   * With PlainReadOptions.literal, where the backend could tell: the lines of `bytes` holding the
   * literal, four numbers each (LiteralLineSearch.lines with no line skipped), empty when it is
   * not there. Undefined where the reader must look itself (a UTF-16 or binary file, a lone `\r`).
   */
  literalLines?: ArrayLike<number>;
}

/**
 * How much of an earlier resolution a backend may reuse for a call. A backend that resolves each
 * path race-free below its root (the node backend opened on its root) checks every folder it goes
 * through; a folder it checked after `resolvedSince` was at its path below the root during the
 * caller's call, so the caller may have it used again without a new check. A search passes when
 * its page started: the folders it lists are then read through the descriptors their listings
 * opened. Without it, every use is checked again, as before.
 */
export interface ResolveOptions {
  /** a `performance.now()` time: when the caller's call started (the backend checks folders checked before it again) */
  resolvedSince?: number;
}

/** How readPlainFiles reads. */
export interface PlainReadOptions extends ResolveOptions {
  /**
   * Read on the calling thread, not on a helper thread: for a caller that would otherwise only
   * wait for the reads it already has out (the wait becomes work, and no thread is woken for it).
   */
  here?: boolean;
  /** a literal to find the lines of in each file as it is read (PlainFile.literalLines): a search's */
  literal?: LiteralBytes;
}

/** What a backend can do, so the tools and the suite know what to expect of it. */
export interface FsCapabilities {
  /** the backend holds symbolic links (without them `symlink` fails with EPERM) */
  symlinks: boolean;
  /** rename over an existing file replaces it in one step */
  atomicRename: boolean;
  /** files keep an executable bit (writeFile's `mode`); absent means they do not */
  modes?: boolean;
  /**
   * every change stamps `mtimeMs` with `Date.now()` of the realm the backend runs in, so a stat
   * taken in a later millisecond than a file's mtime sees any later write as a new mtime: a rescan
   * then trusts its stat cache without the second it waits out on other backends (racy files);
   * absent means it does not
   */
  clockMtimes?: boolean;
  /**
   * writeFile puts a new file in the path's place: a link there is replaced, never written
   * through, and a folder there refuses it with EISDIR, so a caller need not look first; absent
   * means it may write through a link
   */
  replacesOnWrite?: boolean;
}

/** The `mode` a writeFile call asked for, if any. */
export function requestedMode(options: unknown): number | undefined {
  const mode = (options as { mode?: unknown } | null | undefined)?.mode;
  return typeof options === 'object' && typeof mode === 'number' ? mode : undefined;
}

export function statTypeOf(s: {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}): FsStat['type'] {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isDirectory()) return 'dir';
  return 'file';
}
