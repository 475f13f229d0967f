import { FsError } from '../errors.js';

export interface DirNode {
  kind: 'dir';
  children: Map<string, PackNode>;
  mtimeMs: number;
  ino: number;
}
export interface FileNode {
  kind: 'file';
  /** where the file's bytes sit in the current log */
  at: number;
  size: number;
  mtimeMs: number;
  ino: number;
  executable: boolean;
}
export type PackNode = DirNode | FileNode;

/** What a compacted log spends on an entry besides a file's bytes: its record header and path, roughly. */
const ENTRY_OVERHEAD = 96;

/**
 * The folder tree of a packed workspace, held in memory: names, sizes, times and where each
 * file's bytes sit in the log. The checks here are the filesystem's rules (a missing parent is
 * ENOENT, a file on the way is ENOTDIR, ...); the store runs them before it appends a record, and
 * replay runs them again, so a record that does not fit the tree marks the end of the log.
 */
export class PackTree {
  readonly root: DirNode;
  private nextIno = 2;
  /** roughly what a compacted log of this tree takes: the trigger for compaction */
  liveBytes = 0;

  constructor(time: number) {
    this.root = { kind: 'dir', children: new Map(), mtimeMs: time, ino: 1 };
  }

  find(parts: string[], op: string): PackNode {
    let node: PackNode = this.root;
    for (const part of parts) {
      if (node.kind !== 'dir') throw new FsError('ENOTDIR', op);
      const next: PackNode | undefined = node.children.get(part);
      if (!next) throw new FsError('ENOENT', op);
      node = next;
    }
    return node;
  }

  /** The entry at `parts` (not the root) with the folder holding it, walking the tree once. */
  private locate(parts: string[], op: string): { parent: DirNode; name: string; node: PackNode } {
    const parent = this.dir(parts.slice(0, -1), op);
    const name = parts[parts.length - 1]!;
    const node = parent.children.get(name);
    if (!node) throw new FsError('ENOENT', op);
    return { parent, name, node };
  }

  /** The folder at `parts`, which must exist. */
  dir(parts: string[], op: string): DirNode {
    const node = this.find(parts, op);
    if (node.kind !== 'dir') throw new FsError('ENOTDIR', op);
    return node;
  }

  /** Where a write of `parts` goes; throws when it cannot. */
  checkWrite(parts: string[]): { parent: DirNode; name: string } {
    if (parts.length === 0) throw new FsError('EISDIR', 'writeFile');
    const parent = this.dir(parts.slice(0, -1), 'writeFile');
    const name = parts[parts.length - 1]!;
    if (parent.children.get(name)?.kind === 'dir') throw new FsError('EISDIR', 'writeFile');
    return { parent, name };
  }

  putFile(parent: DirNode, name: string, at: number, size: number, time: number, executable: boolean): void {
    const old = parent.children.get(name) as FileNode | undefined;
    if (old) {
      this.liveBytes -= old.size;
      old.at = at;
      old.size = size;
      old.mtimeMs = time;
      old.executable = executable;
    } else {
      parent.children.set(name, { kind: 'file', at, size, mtimeMs: time, ino: this.nextIno++, executable });
      this.liveBytes += ENTRY_OVERHEAD;
    }
    this.liveBytes += size;
  }

  /** Where a single (non-recursive) mkdir of `parts` goes. */
  checkMkdir(parts: string[]): { parent: DirNode; name: string } {
    if (parts.length === 0) throw new FsError('EEXIST', 'mkdir');
    const parent = this.dir(parts.slice(0, -1), 'mkdir');
    const name = parts[parts.length - 1]!;
    if (parent.children.has(name)) throw new FsError('EEXIST', 'mkdir');
    return { parent, name };
  }

  putDir(parent: DirNode, name: string, time: number): DirNode {
    const dir: DirNode = { kind: 'dir', children: new Map(), mtimeMs: time, ino: this.nextIno++ };
    parent.children.set(name, dir);
    this.liveBytes += ENTRY_OVERHEAD;
    return dir;
  }

  /** Check the removal of a file (`want` file) or an empty folder. */
  checkRemove(parts: string[], want: 'file' | 'dir'): { parent: DirNode; name: string } {
    const op = want === 'file' ? 'unlink' : 'rmdir';
    if (parts.length === 0) throw new FsError('EBUSY', op);
    const { parent, name, node } = this.locate(parts, op);
    if (node.kind !== want) throw new FsError(want === 'file' ? 'EISDIR' : 'ENOTDIR', op);
    if (node.kind === 'dir' && node.children.size > 0) throw new FsError('ENOTEMPTY', op);
    return { parent, name };
  }

  drop(parent: DirNode, name: string): void {
    const node = parent.children.get(name);
    if (!node) return;
    parent.children.delete(name);
    this.liveBytes -= ENTRY_OVERHEAD + (node.kind === 'file' ? node.size : 0);
  }

  /** Check a rename as Node does it; null when there is nothing to do (a path onto itself). */
  checkRename(
    from: string[],
    to: string[],
  ): { node: PackNode; from: DirNode; name: string; into: DirNode; as: string } | null {
    if (from.length === 0) throw new FsError('EINVAL', 'rename');
    const { parent: fromDir, name, node } = this.locate(from, 'rename');
    const fromKey = from.join('/');
    const toKey = to.join('/');
    if (fromKey === toKey) return null;
    if (toKey.startsWith(`${fromKey}/`)) throw new FsError('EINVAL', 'rename');
    if (to.length === 0) throw new FsError('EBUSY', 'rename');
    const into = this.dir(to.slice(0, -1), 'rename');
    const as = to[to.length - 1]!;
    const dest = into.children.get(as);
    if (dest && node.kind === 'dir' && dest.kind !== 'dir') throw new FsError('ENOTDIR', 'rename');
    if (dest && node.kind === 'file' && dest.kind === 'dir') throw new FsError('EISDIR', 'rename');
    if (dest?.kind === 'dir' && dest.children.size > 0) throw new FsError('ENOTEMPTY', 'rename');
    return { node, from: fromDir, name, into, as };
  }

  move(plan: { node: PackNode; from: DirNode; name: string; into: DirNode; as: string }): void {
    this.drop(plan.into, plan.as);
    plan.from.children.delete(plan.name);
    plan.into.children.set(plan.as, plan.node);
  }
}

/** Every entry below `dir` with its path, folders before what they hold. */
export function* walkTree(dir: DirNode, prefix = ''): Generator<[string, PackNode]> {
  for (const [name, node] of dir.children) {
    const path = prefix ? `${prefix}/${name}` : name;
    yield [path, node];
    if (node.kind === 'dir') yield* walkTree(node, path);
  }
}
