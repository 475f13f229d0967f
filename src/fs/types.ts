/** What `stat`/`lstat` return: the fields isomorphic-git and the tools read. */
export interface FsStat {
  type: 'file' | 'dir' | 'symlink';
  mode: number;
  size: number;
  ino: number;
  mtimeMs: number;
  ctimeMs: number;
  uid: number;
  gid: number;
  dev: number;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** A directory entry with its type, as `readdir(..., { withFileTypes: true })` gives it. */
export interface FsDirent {
  name: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
}

/**
 * The async filesystem every backend implements: a small subset of Node's `fs.promises`,
 * shaped so the same object can be handed to isomorphic-git as `{ promises: fs }`.
 * Paths are absolute POSIX paths. Failures are errors carrying a Node `code`
 * (ENOENT, EEXIST, EISDIR, ENOTDIR, ENOTEMPTY, EACCES, ENOSPC, EIO).
 */
export interface WorkspaceFs {
  readFile(path: string, options?: { encoding?: null }): Promise<Uint8Array>;
  readFile(path: string, options: { encoding: 'utf8' } | 'utf8'): Promise<string>;
  writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<FsStat>;
  lstat(path: string): Promise<FsStat>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  rmdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  readlink(path: string): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
  /** Optional fast path for directory walks; callers fall back to readdir + lstat. */
  readdirTypes?(path: string): Promise<FsDirent[]>;
  /** What the backend can do; absent means all true. */
  readonly capabilities?: FsCapabilities;
}

export interface FsCapabilities {
  symlinks: boolean;
  /** rename over an existing file replaces it in one step */
  atomicRename: boolean;
}

export function statTypeOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FsStat['type'] {
  if (s.isSymbolicLink()) return 'symlink';
  if (s.isDirectory()) return 'dir';
  return 'file';
}
