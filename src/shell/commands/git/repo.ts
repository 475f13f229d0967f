import '../../../snapshots/global-buffer.js';
import * as git from 'isomorphic-git';
import { FsError } from '../../../fs/errors.js';
import { UsageError, type CommandContext } from '../../context.js';
import { shellPath, type ShellFs } from '../../overlay.js';

/** A file as git sees it in a tree, the index or the working tree. */
export interface GitFile {
  oid: string;
  /** '100644', '100755', '120000' */
  mode: string;
}

/** A loud failure of a git subcommand: printed as git prints it (`fatal: ...`), status 128 unless told. */
export class GitFatal extends Error {
  constructor(
    message: string,
    readonly status = 128,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const NO_PATH = new FsError('EINVAL', 'readFile');

/**
 * isomorphic-git's `fs` over the shell's overlay: reads see the command line's earlier writes,
 * writes are buffered and carried into the workspace with the git command's capability. Links
 * are recorded (readlink), never followed, and a link is never made.
 */
export function gitFsOf(sfs: ShellFs, dir = '/') {
  // isomorphic-git names some paths relative to the work tree ('.git'), and some with '//'
  const at = (p: string) => shellPath(dir, p);
  const stat = async (p: string) => {
    const s = await sfs.fullStat(at(p));
    if (!s) throw new FsError('ENOENT', 'stat');
    return s;
  };
  return {
    promises: {
      async readFile(p: string, options?: { encoding?: string } | string) {
        // isomorphic-git calls readFile() with no path, twice per API call, to see that it answers
        // with a promise: a rejection made once, not a TypeError with its stack every time
        if (typeof p !== 'string') throw NO_PATH;
        const data = await sfs.readFile(at(p));
        const encoding = typeof options === 'string' ? options : options?.encoding;
        return encoding === 'utf8' ? decoder.decode(data) : data;
      },
      async writeFile(p: string, data: Uint8Array | string) {
        await sfs.writeFile(at(p), typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data), 'git');
      },
      async mkdir(p: string) {
        await sfs.mkdir(at(p), 'git');
      },
      async rmdir(p: string) {
        if ((await sfs.readdir(at(p))).length > 0) throw new FsError('ENOTEMPTY', 'rmdir');
        await sfs.remove(at(p), 'git');
      },
      async unlink(p: string) {
        await sfs.remove(at(p), 'git');
      },
      readdir: (p: string) => sfs.readdir(at(p)),
      stat,
      lstat: stat,
      readlink: (p: string) => sfs.readlink(at(p)),
      async symlink() {
        throw new FsError('EPERM', 'symlink');
      },
      async chmod() {},
    },
  };
}

/** The files of the last commit read per backend (see `treeFiles`). */
const lastTrees = new WeakMap<object, { commit: string; files: Map<string, GitFile> }>();

/** The repository a git command works on, with the paths and names every subcommand needs. */
export class Repo {
  readonly fs: ReturnType<typeof gitFsOf>;
  readonly cache = {};
  constructor(
    readonly ctx: CommandContext,
    /** the work tree's shell path ('/' or '/sub') */
    readonly dir: string,
    /** the shell's folder, relative to the work tree ('' at its top) */
    readonly prefix: string,
  ) {
    this.fs = gitFsOf(ctx.shell.state.fs, dir);
  }

  get gitdir(): string {
    return this.dir === '/' ? '/.git' : `${this.dir}/.git`;
  }

  /** The options every isomorphic-git call takes. */
  get base() {
    return { fs: this.fs, dir: this.dir, gitdir: this.gitdir, cache: this.cache };
  }

  /** A path the user typed, as a path from the top of the work tree ('' for the top itself). */
  toRepoPath(arg: string): string {
    const abs = shellPath(this.ctx.shell.state.cwd, arg);
    const top = this.dir === '/' ? '' : this.dir;
    if (abs !== this.dir && !abs.startsWith(`${top}/`)) throw new GitFatal(`${arg}: '${arg}' is outside repository`);
    return abs.slice(top.length + 1);
  }

  /** A path from the top, as git prints it to someone standing in the shell's folder. */
  display(path: string): string {
    if (this.prefix === '') return path;
    const from = this.prefix.split('/');
    const to = path.split('/');
    let i = 0;
    while (i < from.length && i < to.length - 1 && from[i] === to[i]) i++;
    return [...from.slice(i).map(() => '..'), ...to.slice(i)].join('/');
  }

  /** The branch HEAD names (undefined when detached). */
  async branch(): Promise<string | undefined> {
    const head = await this.readText('HEAD');
    const m = /^ref: refs\/heads\/(.+)\n?$/.exec(head);
    return m ? m[1] : undefined;
  }

  /** Whether `name` is a local branch. */
  async isBranch(name: string): Promise<boolean> {
    return git.resolveRef({ ...this.base, ref: `refs/heads/${name}` }).then(
      () => true,
      () => false,
    );
  }

  /** The commit HEAD points at, or null in a repository with no commits yet. */
  async head(): Promise<string | null> {
    return git.resolveRef({ ...this.base, ref: 'HEAD' }).catch(() => null);
  }

  async readText(name: string): Promise<string> {
    return decoder.decode(await this.ctx.shell.state.fs.readFile(`${this.gitdir}/${name}`));
  }

  /** A commit named the ways agents name one: HEAD, branches, tags, hashes, `~n`, `^`, `@{n}` of the stash. */
  async resolve(rev: string): Promise<string> {
    const m = /^(.*?)((?:[~^]\d*)*)$/.exec(rev)!;
    const base = m[1] === '' || m[1] === '@' ? 'HEAD' : m[1]!;
    const found = await this.resolveName(base);
    if (found === null)
      throw new GitFatal(`ambiguous argument '${rev}': unknown revision or path not in the working tree.`);
    let oid: string = found;
    for (const step of m[2]!.match(/[~^]\d*/g) ?? []) {
      const n = step.length > 1 ? Number(step.slice(1)) : 1;
      const commit = async (o: string) => (await git.readCommit({ ...this.base, oid: o })).commit;
      if (step[0] === '~') {
        for (let i = 0; i < n; i++) {
          const parent: string | undefined = (await commit(oid)).parent[0];
          if (!parent)
            throw new GitFatal(`ambiguous argument '${rev}': unknown revision or path not in the working tree.`);
          oid = parent;
        }
      } else if (n > 0) {
        const parent: string | undefined = (await commit(oid)).parent[n - 1];
        if (!parent)
          throw new GitFatal(`ambiguous argument '${rev}': unknown revision or path not in the working tree.`);
        oid = parent;
      }
    }
    return oid;
  }

  private async resolveName(name: string): Promise<string | null> {
    const stash = /^stash@\{(\d+)\}$/.exec(name);
    if (stash) return (await this.stashList())[Number(stash[1])] ?? null;
    for (const ref of name === 'HEAD'
      ? ['HEAD']
      : [name, `refs/tags/${name}`, `refs/heads/${name}`, `refs/remotes/${name}`]) {
      const oid = await git.resolveRef({ ...this.base, ref }).catch(() => null);
      if (oid) return oid;
    }
    if (/^[0-9a-f]{4,40}$/.test(name)) return git.expandOid({ ...this.base, oid: name }).catch(() => null);
    return null;
  }

  /** The stash's commits, newest first, from its reflog. */
  async stashList(): Promise<string[]> {
    const log = await this.readText('logs/refs/stash').catch(() => '');
    return log
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ')[1]!)
      .reverse();
  }

  private shallowCommits: Promise<Set<string>> | null = null;

  /** The commits a shallow clone holds without their parents (`.git/shallow`): git shows them as roots. */
  shallow(): Promise<Set<string>> {
    this.shallowCommits ??= this.readText('shallow').then(
      (text) => new Set(text.split('\n').filter(Boolean)),
      () => new Set<string>(),
    );
    return this.shallowCommits;
  }

  /** A shortened hash, as git abbreviates (7 hex digits). */
  short(oid: string): string {
    return oid.slice(0, 7);
  }

  /**
   * The files of a commit's tree, by path from the top (read tree by tree: git.walk's per-entry
   * promises cost more). A copy the caller may change, or with `shared` the kept files themselves,
   * which the caller only reads.
   */
  async treeFiles(commit: string | null, shared = false): Promise<Map<string, GitFile>> {
    if (!commit) return new Map();
    // A commit never changes, so its files are kept for the next command (HEAD's, mostly).
    const known = lastTrees.get(this.ctx.shell.state.fs.backend);
    if (known?.commit === commit) return shared ? known.files : new Map(known.files);
    const out = new Map<string, GitFile>();
    const { commit: parsed } = await git.readCommit({ ...this.base, oid: commit });
    const readInto = async (oid: string, prefix: string): Promise<void> => {
      const { tree } = await git.readTree({ ...this.base, oid });
      const below: Promise<void>[] = [];
      for (const e of tree) {
        const path = prefix + e.path;
        if (e.type === 'tree') below.push(readInto(e.oid, `${path}/`));
        else if (e.type === 'blob') out.set(path, { oid: e.oid, mode: modeText(Number.parseInt(e.mode, 8)) });
      }
      await Promise.all(below);
    };
    await readInto(parsed.tree, '');
    const files = new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    lastTrees.set(this.ctx.shell.state.fs.backend, { commit, files });
    return shared ? files : new Map(files);
  }

  /** The files the index stages, by path. */
  async indexFiles(): Promise<Map<string, GitFile>> {
    const out = new Map<string, GitFile>();
    await git.walk({
      ...this.base,
      trees: [git.STAGE()],
      map: async (path, [entry]) => {
        if (!entry || path === '.') return true;
        if ((await entry.type()) === 'blob')
          out.set(path, { oid: await entry.oid(), mode: modeText(await entry.mode()) });
        return true;
      },
    });
    return out;
  }

  /** The bytes of a blob. */
  async blob(oid: string): Promise<Uint8Array> {
    return (await git.readBlob({ ...this.base, oid })).blob;
  }

  /** A work-tree file's bytes (a link's target), or null when it is absent. */
  async workFile(path: string): Promise<{ data: Uint8Array; mode: string } | null> {
    const abs = `${this.dir === '/' ? '' : this.dir}/${path}`;
    const sfs = this.ctx.shell.state.fs;
    const s = await sfs.fullStat(abs);
    if (!s || s.type === 'dir') return null;
    if (s.type === 'symlink') return { data: encoder.encode(await sfs.readlink(abs)), mode: '120000' };
    return { data: await sfs.readFile(abs), mode: s.mode & 0o111 ? '100755' : '100644' };
  }

  /** A local config value (the repository's own `.git/config`), or undefined. */
  async config(path: string): Promise<string | undefined> {
    const value = await git.getConfig({ ...this.base, path }).catch(() => undefined);
    return value === undefined || value === null ? undefined : String(value);
  }
}

export const modeText = (mode: number | undefined) => (mode ?? 0o100644).toString(8).padStart(6, '0');

/** Find the repository above the shell's folder, as git does; `fatal: not a git repository` without one. */
export async function openRepo(ctx: CommandContext): Promise<Repo> {
  const sfs = ctx.shell.state.fs;
  const cwd = ctx.shell.state.cwd;
  for (let dir = cwd; ; dir = dir.slice(0, Math.max(dir.lastIndexOf('/'), 1))) {
    const s = await sfs.fullStat(dir === '/' ? '/.git' : `${dir}/.git`).catch(() => null);
    if (s?.type === 'dir') return new Repo(ctx, dir, dir === cwd ? '' : cwd.slice(dir === '/' ? 1 : dir.length + 1));
    if (dir === '/') break;
  }
  throw new GitFatal('not a git repository (or any of the parent directories): .git');
}

/** Options the subcommands read, with git's own spelling of a bad one. */
export function unknownOption(sub: string, arg: string): never {
  throw new UsageError(`${sub}: option '${arg}' is not supported by this shell's git`, 129);
}
