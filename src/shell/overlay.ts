import { FsError, hasFsCode } from '../fs/errors.js';
import type { FsStat, WorkspaceFs } from '../fs/types.js';
import { RESERVED_TOP_LEVEL } from '../workspace/paths.js';

/** What the shell knows about one path it changed: new bytes, a folder it made, or a removal. */
export type OverlayEntry = (
  | { kind: 'file'; data: Uint8Array; mtimeMs?: number; executable?: boolean }
  | { kind: 'link'; target: string; mtimeMs?: number }
  | { kind: 'dir'; fresh: boolean; mtimeMs?: number }
  | { kind: 'deleted'; mtimeMs?: undefined }
) & {
  /** made by the shell's `git`, the one writer that may change the workspace's own `.git` */
  byGit?: true;
};

/** Who asks for a write: the shell's `git` passes this, every other command nothing. */
export type Writer = 'git' | undefined;

/** What a shell path is, as the shell sees it (overlay first, then the backend). */
export interface ShellStat {
  type: 'file' | 'dir';
  size: number;
  mtimeMs: number;
}

/** What `lstat` tells of a path: links reported as links with their target, files with their executable bit. */
export interface ShellLstat {
  type: 'file' | 'dir' | 'symlink';
  size: number;
  mtimeMs: number;
  executable: boolean;
  target?: string;
}

/** A change the overlay holds, in the order it must be applied (parents before children). */
export interface BufferedChange {
  /** root-relative path */
  path: string;
  entry: OverlayEntry;
}

const RESERVED = new Set(RESERVED_TOP_LEVEL);

/**
 * Normalise a shell path against the shell's current folder. `/` is the workspace root, and
 * `..` stops there, the way it does at a real filesystem's root: nothing above it can be named.
 */
export function shellPath(cwd: string, path: string): string {
  const parts = (path.startsWith('/') ? path : `${cwd}/${path}`).split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `/${out.join('/')}`;
}

const mark = (by: Writer): { byGit?: true } => (by === 'git' ? { byGit: true } : {});

let madeUpIno = 1 << 30;
/** A stat for a file or folder (size -1) that exists only in the overlay so far. */
function madeUpStat(size: number, now = Date.now()): FsStat {
  const type = size < 0 ? 'dir' : 'file';
  return {
    type,
    mode: type === 'dir' ? 0o40755 : 0o100644,
    size: Math.max(size, 0),
    ino: madeUpIno++,
    mtimeMs: now,
    ctimeMs: now,
    uid: 0,
    gid: 0,
    dev: 0,
    isFile: () => type === 'file',
    isDirectory: () => type === 'dir',
    isSymbolicLink: () => false,
  };
}

/**
 * A write's time, finer than a millisecond: a file the command writes is newer than one the backend
 * stamped in the same millisecond, as on a real filesystem (`find -newer`, `ls -t`).
 */
const writeTime = () => performance.timeOrigin + performance.now();

const parentOf = (p: string) => (p.lastIndexOf('/') <= 0 ? '/' : p.slice(0, p.lastIndexOf('/')));

/**
 * The shell's view of the workspace: reads pass through to the backend, confined below the root;
 * writes stay in memory until `changes()` hands them to the workspace in one go. Symbolic links
 * are never followed (a link could lead outside the root), and `.sandpit/` (the shadow snapshot
 * repository) can be neither read nor written.
 */
export class ShellFs {
  private readonly entries = new Map<string, OverlayEntry>();
  /** `<(...)` outputs by their `/dev/fd/N` name: readable, never written back */
  private readonly pipes = new Map<string, Uint8Array>();
  private readonly root: string;
  /** folders whose entries this command changed, with the time: a folder's mtime moves as in a real one */
  private readonly dirTimes = new Map<string, number>();

  /** The backend below the overlay: what caches of what the backend holds are kept by. */
  get backend(): WorkspaceFs {
    return this.fs;
  }

  constructor(
    private readonly fs: WorkspaceFs,
    root: string,
  ) {
    this.root = root === '/' ? '' : root.replace(/\/+$/, '');
  }

  /** Where a shell path lies in the backend. */
  backendPath(p: string): string {
    return p === '/' ? this.root || '/' : `${this.root}${p}`;
  }

  private guard(p: string, op: string): void {
    const top = p.split('/')[1];
    if (top !== undefined && RESERVED.has(top)) throw new FsError('EACCES', op);
  }

  /** The overlay's verdict for `p`: an entry, 'missing', or undefined (ask the backend). */
  private overlaid(p: string): OverlayEntry | 'missing' | undefined {
    const own = this.entries.get(p);
    if (own) return own.kind === 'deleted' ? 'missing' : own;
    for (let a = parentOf(p); ; a = parentOf(a)) {
      const e = this.entries.get(a);
      if (e?.kind === 'deleted') return 'missing';
      if (e?.kind === 'file') throw new FsError('ENOTDIR', 'stat');
      if (e?.kind === 'dir' && e.fresh) return 'missing';
      if (a === '/') return undefined;
    }
  }

  /** Hold a process substitution's output under a `/dev/fd/N` name; gives the name. */
  addPipe(data: Uint8Array): string {
    const name = `/dev/fd/${63 + this.pipes.size}`;
    this.pipes.set(name, data);
    return name;
  }

  /** stat without following links; a link is reported as an error the shell turns into a message. */
  async stat(p: string): Promise<ShellStat | null> {
    const pipe = this.pipes.get(p);
    if (pipe) return { type: 'file', size: pipe.length, mtimeMs: Date.now() };
    this.guard(p, 'stat');
    const o = this.overlaid(p);
    if (o === 'missing') return null;
    const touched = this.dirTimes.get(p);
    if (touched !== undefined && (!o || o.kind === 'dir')) return { type: 'dir', size: 0, mtimeMs: touched };
    if (o?.kind === 'link') throw new FsError('ELOOP', 'stat');
    if (o)
      return o.kind === 'file'
        ? { type: 'file', size: o.data.length, mtimeMs: o.mtimeMs ?? Date.now() }
        : { type: 'dir', size: 0, mtimeMs: o.mtimeMs ?? Date.now() };
    try {
      const s = await this.fs.lstat(this.backendPath(p));
      if (s.type === 'symlink') throw new FsError('ELOOP', 'stat');
      return { type: s.type, size: s.size, mtimeMs: s.mtimeMs };
    } catch (error) {
      if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    }
  }

  async readFile(p: string): Promise<Uint8Array> {
    const pipe = this.pipes.get(p);
    if (pipe) return pipe;
    const s = await this.stat(p);
    if (!s) throw new FsError('ENOENT', 'open');
    if (s.type === 'dir') throw new FsError('EISDIR', 'read');
    const o = this.overlaid(p);
    if (o && o !== 'missing' && o.kind === 'file') return o.data;
    return this.fs.readFile(this.backendPath(p));
  }

  /** Names in a folder, sorted bytewise (as `LC_ALL=C ls` sorts), `.sandpit` left out at the root. */
  async readdir(p: string): Promise<string[]> {
    const s = await this.stat(p);
    if (!s) throw new FsError('ENOENT', 'scandir');
    if (s.type !== 'dir') throw new FsError('ENOTDIR', 'scandir');
    const names = new Set<string>();
    const o = this.overlaid(p);
    if (!(o && o !== 'missing' && o.kind === 'dir' && o.fresh)) {
      for (const name of await this.fs.readdir(this.backendPath(p)).catch(() => [] as string[])) names.add(name);
    }
    const prefix = p === '/' ? '/' : `${p}/`;
    for (const [key, e] of this.entries) {
      if (!key.startsWith(prefix) || key.length === prefix.length || key.slice(prefix.length).includes('/')) continue;
      if (e.kind === 'deleted') names.delete(key.slice(prefix.length));
      else names.add(key.slice(prefix.length));
    }
    if (p === '/') for (const r of RESERVED) names.delete(r);
    return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** `executable` marks a file the backend should keep as mode 0755 where it keeps modes (npm's `.bin` entries). */
  async writeFile(p: string, data: Uint8Array, by?: Writer, executable?: boolean): Promise<void> {
    this.guard(p, 'open');
    if (p === '/') throw new FsError('EISDIR', 'open');
    const parent = await this.stat(parentOf(p));
    if (!parent) throw new FsError('ENOENT', 'open');
    if (parent.type !== 'dir') throw new FsError('ENOTDIR', 'open');
    if ((await this.stat(p))?.type === 'dir') throw new FsError('EISDIR', 'open');
    if (!(await this.stat(p))) this.dirTimes.set(parentOf(p), writeTime());
    const was = this.entries.get(p);
    // A rewrite keeps the file's bit unless the writer sets it (npm's `.bin` entries).
    const keep = executable ?? (was?.kind === 'file' ? was.executable : undefined);
    this.entries.set(p, {
      kind: 'file',
      data,
      mtimeMs: writeTime(),
      ...(keep === undefined ? {} : { executable: keep }),
      ...mark(by),
    });
  }

  /** The path itself, never what a link points to: its kind, size, time, executable bit and a link's target. */
  async lstat(p: string): Promise<ShellLstat | null> {
    this.guard(p, 'stat');
    const o = this.overlaid(p);
    if (o === 'missing') return null;
    if (o?.kind === 'link')
      return {
        type: 'symlink',
        size: o.target.length,
        mtimeMs: o.mtimeMs ?? Date.now(),
        executable: true,
        target: o.target,
      };
    if (o?.kind === 'file' && o.executable !== undefined) {
      const s = await this.stat(p);
      return { ...s!, type: 'file', executable: o.executable };
    }
    const full = await this.fullStat(p);
    if (!full) return null;
    if (full.type === 'symlink')
      return {
        type: 'symlink',
        size: full.size,
        mtimeMs: full.mtimeMs,
        executable: true,
        target: await this.readlink(p),
      };
    const s = (await this.stat(p))!;
    return { ...s, executable: s.type === 'dir' || (full.mode & 0o100) !== 0 };
  }

  /** Make a symbolic link at `p` (replacing what is there when `replace`); its target is stored as given. */
  async symlink(target: string, p: string, replace = false): Promise<void> {
    this.guard(p, 'symlink');
    const parent = await this.stat(parentOf(p));
    if (!parent) throw new FsError('ENOENT', 'symlink');
    if (parent.type !== 'dir') throw new FsError('ENOTDIR', 'symlink');
    const there = await this.lstat(p);
    if (there && !replace) throw new FsError('EEXIST', 'symlink');
    if (there?.type === 'dir') throw new FsError('EISDIR', 'symlink');
    this.dirTimes.set(parentOf(p), writeTime());
    this.entries.set(p, { kind: 'link', target, mtimeMs: writeTime() });
  }

  /** Whether the backend keeps a file's executable bit (the only mode bit the workspace keeps). */
  get keepsModes(): boolean {
    return this.fs.capabilities?.modes === true;
  }

  /** Whether the backend makes links (where it does not, a link is checked out as a file holding its target). */
  get keepsLinks(): boolean {
    return this.fs.capabilities?.symlinks !== false;
  }

  /** Set a file's executable bit, the one mode bit the workspace keeps. */
  async setExecutable(p: string, executable: boolean): Promise<void> {
    const s = await this.stat(p);
    if (!s) throw new FsError('ENOENT', 'chmod');
    if (s.type !== 'file') return;
    const data = await this.readFile(p);
    const was = this.entries.get(p);
    this.entries.set(p, {
      kind: 'file',
      data,
      mtimeMs: was?.kind === 'file' ? was.mtimeMs : s.mtimeMs,
      executable,
      ...(was?.byGit ? { byGit: true as const } : {}),
    });
  }

  async mkdir(p: string, by?: Writer): Promise<void> {
    this.guard(p, 'mkdir');
    if (await this.stat(p)) throw new FsError('EEXIST', 'mkdir');
    const parent = await this.stat(parentOf(p));
    if (!parent) throw new FsError('ENOENT', 'mkdir');
    if (parent.type !== 'dir') throw new FsError('ENOTDIR', 'mkdir');
    this.dirTimes.set(parentOf(p), writeTime());
    // A folder made where one was removed in this command must not show the removed one's files.
    this.entries.set(p, {
      kind: 'dir',
      fresh: this.entries.get(p)?.kind === 'deleted' || (await this.backendExists(p)),
      mtimeMs: writeTime(),
      ...mark(by),
    });
  }

  private async backendExists(p: string): Promise<boolean> {
    return this.fs.lstat(this.backendPath(p)).then(
      () => true,
      () => false,
    );
  }

  /** Remove a file, or a folder with everything below it. */
  async remove(p: string, by?: Writer): Promise<void> {
    this.guard(p, 'rm');
    if (p === '/') throw new FsError('EBUSY', 'rm');
    // A link is removed as itself, never followed.
    if (!(await this.stat(p).catch((e) => (hasFsCode(e, 'ELOOP') ? true : Promise.reject(e)))))
      throw new FsError('ENOENT', 'rm');
    const prefix = `${p}/`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of [...this.dirTimes.keys()]) if (key === p || key.startsWith(prefix)) this.dirTimes.delete(key);
    this.dirTimes.set(parentOf(p), writeTime());
    this.entries.set(p, { kind: 'deleted', ...mark(by) });
  }

  /**
   * The backend's lstats of a folder's entries, by name, in one call: for a walk over many files
   * (`git status`), where a lookup per path costs a confined resolution each. Null when this
   * command has written anything yet (the overlay then decides, path by path), when the folder is
   * reserved, or when the backend has no such call or fails it: the caller asks `fullStat` instead.
   */
  async folderStats(dir: string): Promise<Map<string, FsStat> | null> {
    if (!this.fs.readdirStats || this.entries.size > 0 || this.dirTimes.size > 0) return null;
    if (RESERVED.has(dir.split('/')[1] ?? '')) return null;
    const listed = await this.fs.readdirStats(this.backendPath(dir)).catch(() => null);
    if (!listed) return null;
    const out = new Map<string, FsStat>();
    for (const { name, stat } of listed) if (stat) out.set(name, stat);
    // as readdir answers: the workspace's own top-level folders are not the shell's to see
    if (dir === '/') for (const r of RESERVED) out.delete(r);
    return out;
  }

  /**
   * The backend's full lstat of `p` (what git's index records), or a made-up one for a path the
   * overlay holds; null when absent. Links are reported as links, for `git` to record, never followed.
   */
  async fullStat(p: string): Promise<FsStat | null> {
    this.guard(p, 'stat');
    const o = this.overlaid(p);
    if (o === 'missing') return null;
    const touched = this.dirTimes.get(p);
    if (touched !== undefined && (!o || o.kind === 'dir')) {
      const s = o ? madeUpStat(-1, touched) : await this.fs.lstat(this.backendPath(p));
      return { ...s, mtimeMs: touched };
    }
    if (o?.kind === 'link')
      return {
        ...madeUpStat(o.target.length, o.mtimeMs),
        type: 'symlink',
        mode: 0o120777,
        isFile: () => false,
        isSymbolicLink: () => true,
      };
    if (o?.kind === 'file' && o.executable) return { ...madeUpStat(o.data.length, o.mtimeMs), mode: 0o100755 };
    if (o) return madeUpStat(o.kind === 'file' ? o.data.length : -1, o.mtimeMs);
    return this.fs.lstat(this.backendPath(p)).catch((error) => {
      if (hasFsCode(error, 'ENOENT', 'ENOTDIR')) return null;
      throw error;
    });
  }

  /** The target of a link in the backend (the shell never follows one; `git` records it). */
  async readlink(p: string): Promise<string> {
    this.guard(p, 'readlink');
    const o = this.overlaid(p);
    if (o === 'missing') throw new FsError('ENOENT', 'readlink');
    if (o?.kind === 'link') return o.target;
    if (o) throw new FsError('EINVAL', 'readlink');
    return this.fs.readlink(this.backendPath(p));
  }

  /** The buffered changes, parents before children, as root-relative paths. */
  changes(): BufferedChange[] {
    return [...this.entries]
      .map(([p, entry]) => ({ path: p.slice(1), entry }))
      .sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
  }
}
