import { FsError, hasFsCode } from '../../fs/errors.js';
import { mkdirp } from '../../fs/helpers.js';
import { makeStat } from '../../fs/stat.js';
import { requestedMode, type FsStat, type WorkspaceFs } from '../../fs/types.js';
import type { Dir, Leaf, TreeCache } from '../tree.js';
import { mapGitPath, type ForkLayout } from './layout.js';

const MAX_LINKS = 40;

/**
 * A fork's files, copy-on-write: a read goes to the fork's own folder (`upper`) when the fork
 * wrote the path, else through to the snapshot tree it was forked from (`lower`, read from git one
 * folder at a time), so making a fork copies nothing. Deleting a path the tree holds records a
 * whiteout. The shadow gitdir (`.sandpit/git`) is the parent's, shared, with the fork's own branch
 * file in place of `main` (see mapGitPath): the fork's history is a branch of the same store.
 */
export class ForkFs implements WorkspaceFs {
  readonly capabilities: WorkspaceFs['capabilities'];
  readonly native: WorkspaceFs['native'];
  private readonly sizes = new Map<string, number>();

  constructor(
    private readonly base: WorkspaceFs,
    private readonly lower: TreeCache,
    private readonly readBlob: (oid: string) => Promise<Uint8Array>,
    private readonly layout: ForkLayout,
    /** paths of `lower` the fork removed (a path hides everything below it too) */
    readonly whiteouts: Set<string>,
    private readonly saveWhiteouts: () => Promise<void>,
    private readonly createdAt = Date.now(),
  ) {
    // a file the fork has not written yet carries the fork's own time, not a write's
    this.capabilities = base.capabilities && { ...base.capabilities, clockMtimes: false, replacesOnWrite: false };
    this.native = base.native;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const git = this.git(path);
    if (git) return this.base.readFile(git);
    const at = await this.resolve(path, 'readFile');
    if (at.upper) return this.base.readFile(this.up(at.rel));
    if (at.leaf.kind === 'tree') throw new FsError('EISDIR', 'readFile');
    return this.readBlob(at.leaf.oid);
  }

  async writeFile(path: string, data: Uint8Array | string, options?: unknown): Promise<void> {
    const git = this.git(path);
    if (git) return this.base.writeFile(git, data, options);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (now?.type === 'dir') throw new FsError('EISDIR', 'writeFile');
    if (now?.type === 'symlink') return this.writeFile(await this.follow(rel, 'writeFile'), data, options);
    await this.prepareParent(rel, 'writeFile');
    // a file only the snapshot held keeps its executable bit, as an existing file does
    const keep = now && !now.upper && requestedMode(options) === undefined && modeOf(now.leaf) !== undefined;
    await this.base.writeFile(this.up(rel), data, keep ? { mode: 0o755 } : options);
  }

  async readdir(path: string): Promise<string[]> {
    const git = this.git(path);
    if (git) return this.base.readdir(git);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', 'readdir');
    if (now.type !== 'dir') throw new FsError('ENOTDIR', 'readdir');
    const names = new Set<string>();
    if (now.upper) for (const name of await this.base.readdir(this.up(rel))) names.add(name);
    const lowerDir = await this.lowerAt(rel);
    if (lowerDir?.kind === 'tree')
      for (const name of (await this.lower.entries(lowerDir)).keys())
        if (!this.whiteouts.has(join(rel, name))) names.add(name);
    if (rel === '.sandpit') names.add('git');
    return [...names];
  }

  async stat(path: string): Promise<FsStat> {
    const git = this.git(path);
    if (git) return this.base.stat(git);
    return this.lstat(await this.follow(relOf(path), 'stat'));
  }

  async lstat(path: string): Promise<FsStat> {
    const git = this.git(path);
    if (git) return this.base.lstat(git);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', 'lstat');
    if (now.stat) return now.stat;
    const leaf = now.leaf!;
    if (leaf.kind === 'tree') return makeStat('dir', { ino: inoOf(rel), mtimeMs: this.createdAt });
    let size = this.sizes.get(leaf.oid);
    if (size === undefined) this.sizes.set(leaf.oid, (size = (await this.readBlob(leaf.oid)).length));
    const mode = leaf.mode === '120000' ? 0o120777 : leaf.mode === '100755' ? 0o100755 : 0o100644;
    return makeStat(leaf.mode === '120000' ? 'symlink' : 'file', {
      mode,
      size,
      ino: inoOf(rel),
      mtimeMs: this.createdAt,
    });
  }

  async mkdir(path: string, options?: { recursive?: boolean }): Promise<void> {
    const git = this.git(path);
    if (git) return this.base.mkdir(git, options);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (now) {
      if (options?.recursive && now.type === 'dir') return;
      throw new FsError('EEXIST', 'mkdir');
    }
    if (options?.recursive && rel.includes('/')) await this.mkdir(`/${rel.slice(0, rel.lastIndexOf('/'))}`, options);
    await this.prepareParent(rel, 'mkdir');
    await this.base.mkdir(this.up(rel));
  }

  async rmdir(path: string): Promise<void> {
    const git = this.git(path);
    if (git) return this.base.rmdir(git);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', 'rmdir');
    if (now.type !== 'dir') throw new FsError('ENOTDIR', 'rmdir');
    if ((await this.readdir(path)).length > 0) throw new FsError('ENOTEMPTY', 'rmdir');
    await this.hide(rel, now);
  }

  async unlink(path: string): Promise<void> {
    const git = this.git(path);
    if (git) return this.base.unlink(git);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', 'unlink');
    if (now.type === 'dir') throw new FsError('EISDIR', 'unlink');
    await this.hide(rel, now);
  }

  async rename(from: string, to: string): Promise<void> {
    const gitFrom = this.git(from);
    const gitTo = this.git(to);
    if (gitFrom || gitTo) {
      if (!gitFrom || !gitTo) throw new FsError('EXDEV', 'rename');
      return this.base.rename(gitFrom, gitTo);
    }
    const a = relOf(from);
    const b = relOf(to);
    const src = await this.entry(a);
    if (!src) throw new FsError('ENOENT', 'rename');
    if (a === b) return;
    if (b.startsWith(`${a}/`)) throw new FsError('EINVAL', 'rename');
    const dst = await this.entry(b);
    if (dst?.type === 'dir') {
      if (src.type !== 'dir') throw new FsError('EISDIR', 'rename');
      if ((await this.readdir(to)).length > 0) throw new FsError('ENOTEMPTY', 'rename');
      await this.rmdir(to);
    } else if (dst && src.type === 'dir') throw new FsError('ENOTDIR', 'rename');
    await this.prepareParent(b, 'rename');
    if (src.upper && !(await this.lowerAt(a))) {
      // only the fork's own entry: one rename in its folder (a tool's temporary file lands this way)
      await this.base.rename(this.up(a), this.up(b));
      return;
    }
    // copy up what the snapshot holds, then hide the old path
    if (src.type === 'dir') {
      await this.mkdir(to);
      for (const name of await this.readdir(from)) await this.rename(join(from, name), join(to, name));
      await this.rmdir(from);
      return;
    }
    if (src.type === 'symlink') await this.symlink(await this.readlink(from), to);
    else await this.writeFile(to, await this.readFile(from), { mode: src.stat?.mode ?? modeOf(src.leaf) });
    await this.unlink(from);
  }

  async readlink(path: string): Promise<string> {
    const git = this.git(path);
    if (git) return this.base.readlink(git);
    const rel = relOf(path);
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', 'readlink');
    if (now.type !== 'symlink') throw new FsError('EINVAL', 'readlink');
    if (now.upper) return this.base.readlink(this.up(rel));
    return new TextDecoder().decode(await this.readBlob((now.leaf as Leaf).oid));
  }

  async symlink(target: string, path: string): Promise<void> {
    const git = this.git(path);
    if (git) return this.base.symlink(target, git);
    const rel = relOf(path);
    if (await this.entry(rel)) throw new FsError('EEXIST', 'symlink');
    await this.prepareParent(rel, 'symlink');
    await this.base.symlink(target, this.up(rel));
  }

  /** What is at `rel`: the fork's own entry (with its stat) or the snapshot's leaf, or null. */
  private async entry(
    rel: string,
  ): Promise<{ type: FsStat['type']; upper: boolean; stat?: FsStat; leaf?: Leaf | Dir } | null> {
    const own = await this.base.lstat(this.up(rel)).catch((e) => {
      if (hasFsCode(e, 'ENOENT', 'ENOTDIR')) return null;
      throw e;
    });
    if (own) return { type: own.type, upper: true, stat: own };
    const leaf = await this.lowerAt(rel);
    if (!leaf) return null;
    return { type: leaf.kind === 'tree' ? 'dir' : leaf.mode === '120000' ? 'symlink' : 'file', upper: false, leaf };
  }

  private async lowerAt(rel: string): Promise<Leaf | Dir | undefined> {
    if (this.hidden(rel)) return undefined;
    return this.lower.get(rel);
  }

  private hidden(rel: string): boolean {
    if (this.whiteouts.size === 0) return false;
    for (let at = rel.indexOf('/'); at !== -1; at = rel.indexOf('/', at + 1))
      if (this.whiteouts.has(rel.slice(0, at))) return true;
    return this.whiteouts.has(rel);
  }

  /** Remove the fork's own entry and hide the snapshot's. */
  private async hide(rel: string, now: { upper: boolean; type: FsStat['type'] }): Promise<void> {
    if (now.upper) await (now.type === 'dir' ? this.base.rmdir(this.up(rel)) : this.base.unlink(this.up(rel)));
    if (await this.lowerAt(rel)) {
      this.whiteouts.add(rel);
      await this.saveWhiteouts();
    }
  }

  /** The parent must be a folder in the merged view; the fork's folder gets the same folders. */
  private async prepareParent(rel: string, op: string): Promise<void> {
    const slash = rel.lastIndexOf('/');
    if (slash === -1) return;
    const parent = rel.slice(0, slash);
    const at = await this.entry(parent);
    if (!at) throw new FsError('ENOENT', op);
    if (at.type !== 'dir') throw new FsError('ENOTDIR', op);
    if (!at.upper) await mkdirp(this.base, this.up(parent));
  }

  /** Where a path lands after following links (the last component too). */
  private async follow(rel: string, op: string): Promise<string> {
    for (let hops = 0; hops < MAX_LINKS; hops++) {
      const now = await this.entry(rel);
      if (!now) throw new FsError('ENOENT', op);
      if (now.type !== 'symlink') return `/${rel}`;
      const target = await this.readlink(`/${rel}`);
      const from = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
      rel = normalise(target.startsWith('/') ? target : `${from}/${target}`);
    }
    throw new FsError('ELOOP', op);
  }

  private async resolve(
    path: string,
    op: string,
  ): Promise<{ rel: string; upper: true } | { rel: string; upper: false; leaf: Leaf | Dir }> {
    const rel = relOf(await this.follow(relOf(path), op));
    const now = await this.entry(rel);
    if (!now) throw new FsError('ENOENT', op);
    if (now.upper) {
      if (now.type === 'dir') throw new FsError('EISDIR', op);
      return { rel, upper: true };
    }
    return { rel, upper: false, leaf: now.leaf! };
  }

  private up(rel: string): string {
    return rel === '' ? this.layout.upper : `${this.layout.upper}/${rel}`;
  }

  private git(path: string): string | null {
    return mapGitPath(relOf(path), this.layout);
  }
}

function relOf(path: string): string {
  return normalise(path);
}

function normalise(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

function join(a: string, name: string): string {
  return a === '' || a === '/' ? (a === '/' ? `/${name}` : name) : `${a}/${name}`;
}

function modeOf(leaf: Leaf | Dir | undefined): number | undefined {
  return leaf?.kind === 'blob' && leaf.mode === '100755' ? 0o755 : undefined;
}

/** A stable inode number for a path the snapshot holds, far from the small ones backends hand out. */
function inoOf(rel: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < rel.length; i++) h = Math.imul(h ^ rel.charCodeAt(i), 0x01000193) >>> 0;
  return 2 ** 40 + h;
}
