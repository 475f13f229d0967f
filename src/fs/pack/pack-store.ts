import { FsError, translated } from '../errors.js';
import { encodeHeader, Op, readRecord, type LogRecord, type PackFile } from './pack-log.js';
import { GROW_STEP, LogWriter } from './log-writer.js';
import { PackTree, walkTree, type DirNode, type FileNode } from './pack-tree.js';
import { makeStat } from '../stat.js';
import {
  requestedMode,
  type FsDirent,
  type FsDirentStat,
  type FsStat,
  type PlainFile,
  type WorkspaceFs,
} from '../types.js';

/** The folder a packed workspace keeps its logs in. `open` creates a missing file. */
export interface PackFolder {
  names(): Promise<string[]>;
  open(name: string): Promise<PackFile>;
  remove(name: string): Promise<void>;
}

/** A packed workspace: a WorkspaceFs that must be closed to let go of its log. */
export type PackedFs = WorkspaceFs & { close(): Promise<void> };

const LOG_NAME = /^sandpit\.pack\.(\d{1,9})$/;
/** Whether `name` is one of a packed workspace's logs. */
export const isPackLogName = (name: string) => LOG_NAME.test(name);
const logName = (generation: number) => `sandpit.pack.${generation}`;

/** A log is rewritten once it is past this size and more than half of it is replaced bytes. */
const COMPACT_AT = 8 << 20;

const encoder = new TextEncoder();
const partsOf = (path: string) => path.split('/').filter((p) => p !== '' && p !== '.');

interface Replayed {
  tree: PackTree;
  end: number;
  checkpoint: boolean;
  /** whether the log held anything valid at all */
  empty: boolean;
}

/** Build the tree a log describes, up to its last whole record. */
function replay(file: PackFile): Replayed {
  const tree = new PackTree(Date.now());
  const size = file.getSize();
  let at = 0;
  let checkpoint = false;
  for (;;) {
    const read = readRecord(file, at, size);
    if (!read) break;
    try {
      applyRecord(tree, read.record);
    } catch {
      break;
    }
    if (read.record.op === Op.Checkpoint) checkpoint = true;
    at = read.next;
  }
  return { tree, end: at, checkpoint, empty: at === 0 };
}

function applyRecord(tree: PackTree, r: LogRecord): void {
  const parts = partsOf(r.path);
  switch (r.op) {
    case Op.Write: {
      const { parent, name } = tree.checkWrite(parts);
      tree.putFile(parent, name, r.dataAt, r.dataLength, r.time, r.executable);
      return;
    }
    case Op.Mkdir: {
      const { parent, name } = tree.checkMkdir(parts);
      tree.putDir(parent, name, r.time);
      return;
    }
    case Op.Remove: {
      const node = tree.find(parts, 'remove');
      const { parent, name } = tree.checkRemove(parts, node.kind);
      tree.drop(parent, name);
      return;
    }
    case Op.Rename: {
      const plan = tree.checkRename(parts, partsOf(r.to));
      if (plan) tree.move(plan);
      return;
    }
    case Op.Checkpoint:
      return;
  }
}

/**
 * Open (or start) the packed workspace in `folder`. The newest log generation that reached its
 * checkpoint wins; an unfinished compaction and superseded logs are removed. A folder whose only
 * logs are damaged is refused (EIO) rather than started over, so nothing is dropped silently.
 */
export async function openPackStore(folder: PackFolder): Promise<PackedFs> {
  const generations = (await folder.names())
    .map((name) => LOG_NAME.exec(name))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => b - a);
  let chosen: (Replayed & { generation: number; file: PackFile }) | null = null;
  const discard: number[] = [];
  let damaged = false;
  for (const generation of generations) {
    if (chosen) {
      discard.push(generation);
      continue;
    }
    const file = await folder.open(logName(generation));
    const state = replay(file);
    if (state.checkpoint) {
      chosen = { ...state, generation, file };
      continue;
    }
    file.close();
    discard.push(generation);
    if (!state.empty) damaged = true;
  }
  if (!chosen && damaged) throw new FsError('EIO', 'open (the workspace log is damaged)');
  for (const generation of discard) await folder.remove(logName(generation)).catch(() => {});
  if (!chosen) {
    const generation = (generations[0] ?? 0) + 1;
    const file = await folder.open(logName(generation));
    // A new name is an empty file; emptying it again would be one more round trip to the browser.
    if (file.getSize() > 0) file.truncate(0);
    const writer = new LogWriter(file, 0, undefined, 0);
    writer.append(encodeHeader(Op.Checkpoint, Date.now(), ''));
    writer.writeNow();
    file.flush();
    return new PackStore(folder, generation, writer, new PackTree(Date.now())).fs;
  }
  // Whatever follows the last whole record is a write a crash cut short: drop it.
  if (chosen.file.getSize() > chosen.end) chosen.file.truncate(chosen.end);
  return new PackStore(folder, chosen.generation, new LogWriter(chosen.file, chosen.end), chosen.tree).fs;
}

/**
 * A workspace packed into one OPFS file: every change is one record appended through a sync
 * access handle held open, and the tree lives in memory. Creating a file in OPFS costs several
 * round trips to the browser process; an append costs none, so small writes run many times faster.
 * Each operation checks, appends and updates the tree in one synchronous step, so operations
 * never interleave and a crash leaves the log at a record boundary. Only the tab holding the
 * workspace lock may open it (web/host.ts), and the open handle keeps any other writer out.
 */
class PackStore {
  private closed = false;
  private compacting: Promise<void> | null = null;
  readonly fs: PackedFs;

  constructor(
    private readonly folder: PackFolder,
    private generation: number,
    private log: LogWriter,
    private tree: PackTree,
  ) {
    log.onLost = (writer) => this.rebuild(writer);
    const run = <T>(op: string, work: () => T): Promise<T> =>
      translated(op, async () => {
        if (this.closed) throw new FsError('EIO', `${op} (the workspace is closed)`);
        return work();
      });
    // A change resolves once its record is in the file: the records of one turn go in one write (log-writer.ts).
    const changed = <T>(op: string, work: () => T): Promise<T> =>
      translated(op, async () => {
        if (this.closed) throw new FsError('EIO', `${op} (the workspace is closed)`);
        const value = work();
        await this.log.written();
        return value;
      }).then(async (value) => {
        await this.compactIfWasteful();
        return value;
      });
    this.fs = {
      readFile: (path) => run('readFile', () => this.read(this.fileAt(partsOf(path), 'readFile'))),
      writeFile: (path, data, options) =>
        changed('writeFile', () =>
          this.write(partsOf(path), typeof data === 'string' ? encoder.encode(data) : data, requestedMode(options)),
        ),
      readdir: (path) => run('readdir', () => [...this.tree.dir(partsOf(path), 'readdir').children.keys()]),
      readdirTypes: (path) =>
        run('readdir', () =>
          [...this.tree.dir(partsOf(path), 'readdir').children].map(
            ([name, node]): FsDirent => ({ name, type: node.kind }),
          ),
        ),
      // the tree is in memory: a folder's stats in one call, where an lstat each (a clone's index of
      // 2,000 files) went through the call path 2,000 times
      readdirStats: (path) =>
        run('readdir', () =>
          [...this.tree.dir(partsOf(path), 'readdir').children].map(
            ([name, node]): FsDirentStat => ({ name, stat: this.statOf(node) }),
          ),
        ),
      stat: (path) => run('stat', () => this.stat(partsOf(path))),
      lstat: (path) => run('lstat', () => this.stat(partsOf(path))),
      mkdir: (path, o) => changed('mkdir', () => this.mkdir(partsOf(path), o?.recursive ?? false)),
      rmdir: (path) => changed('rmdir', () => this.remove(partsOf(path), 'dir')),
      unlink: (path) => changed('unlink', () => this.remove(partsOf(path), 'file')),
      rename: (from, to) => changed('rename', () => this.rename(partsOf(from), partsOf(to))),
      readlink: (path) =>
        run('readlink', () => {
          this.tree.find(partsOf(path), 'readlink');
          throw new FsError('EINVAL', 'readlink');
        }),
      symlink: () =>
        run('symlink', () => {
          throw new FsError('EPERM', 'symlink');
        }),
      readPlainFile: (base, rel, maxBytes) =>
        run('readFile', (): PlainFile | null => {
          let node;
          try {
            node = this.tree.find([...partsOf(base), ...partsOf(rel)], 'readFile');
          } catch {
            return null;
          }
          if (node.kind !== 'file') return null;
          return { stat: this.statOf(node), bytes: node.size > maxBytes ? null : this.read(node) };
        }),
      close: () => this.close(),
      // no links to write through, and a folder in the way is EISDIR: a checkout need not look first
      capabilities: { symlinks: false, atomicRename: true, modes: true, replacesOnWrite: true },
    };
  }

  private fileAt(parts: string[], op: string): FileNode {
    const node = this.tree.find(parts, op);
    if (node.kind !== 'file') throw new FsError('EISDIR', op);
    return node;
  }

  private read(node: FileNode): Uint8Array {
    return this.log.read(node.at, node.size);
  }

  private statOf(node: FileNode | DirNode): FsStat {
    return node.kind === 'file'
      ? makeStat('file', {
          size: node.size,
          mtimeMs: node.mtimeMs,
          ino: node.ino,
          mode: node.executable ? 0o100755 : 0o100644,
        })
      : makeStat('dir', { mtimeMs: node.mtimeMs, ino: node.ino });
  }

  private stat(parts: string[]): FsStat {
    return this.statOf(this.tree.find(parts, 'stat'));
  }

  private header(
    op: Op,
    parts: string[],
    to?: string[],
    data?: Uint8Array,
    time = Date.now(),
    executable = false,
  ): Uint8Array {
    return encodeHeader(op, time, parts.join('/'), to?.join('/') ?? '', data, executable);
  }

  /** Write a file; it is executable when `mode` says so, or, without a mode, when it already was. */
  private write(parts: string[], data: Uint8Array, mode: number | undefined): void {
    const { parent, name } = this.tree.checkWrite(parts);
    const time = Date.now();
    const existing = parent.children.get(name) as FileNode | undefined;
    const executable = mode === undefined ? (existing?.executable ?? false) : (mode & 0o111) !== 0;
    const header = this.header(Op.Write, parts, undefined, data, time, executable);
    const at = this.log.append(header, data);
    this.tree.putFile(parent, name, at + header.length, data.length, time, executable);
  }

  private mkdir(parts: string[], recursive: boolean): void {
    if (!recursive) {
      this.makeDir(this.tree.checkMkdir(parts).parent, parts);
      return;
    }
    let dir = this.tree.root;
    for (let i = 0; i < parts.length; i++) {
      const next = dir.children.get(parts[i]!);
      if (next?.kind === 'file') throw new FsError(i === parts.length - 1 ? 'EEXIST' : 'ENOTDIR', 'mkdir');
      dir = next ?? this.makeDir(dir, parts.slice(0, i + 1));
    }
  }

  private makeDir(parent: DirNode, parts: string[]): DirNode {
    const time = Date.now();
    this.log.append(this.header(Op.Mkdir, parts, undefined, undefined, time));
    return this.tree.putDir(parent, parts[parts.length - 1]!, time);
  }

  private remove(parts: string[], want: 'file' | 'dir'): void {
    const { parent, name } = this.tree.checkRemove(parts, want);
    this.log.append(this.header(Op.Remove, parts));
    this.tree.drop(parent, name);
  }

  private rename(from: string[], to: string[]): void {
    const plan = this.tree.checkRename(from, to);
    if (!plan) return;
    this.log.append(this.header(Op.Rename, from, to));
    this.tree.move(plan);
  }

  private async compactIfWasteful(): Promise<void> {
    if (this.compacting) return this.compacting;
    if (this.log.end < COMPACT_AT || this.log.end < 2 * this.tree.liveBytes) return;
    this.compacting = this.compact().finally(() => {
      this.compacting = null;
    });
    return this.compacting;
  }

  /**
   * Write the live tree to the next generation's log, end it with a checkpoint, flush it, and only
   * then switch to it and remove the old log. Opening the new file is the only wait; the copy and
   * the switch run in one synchronous step, so no operation lands in between. A failure (a full
   * quota above all) keeps the old log and loses nothing.
   */
  private async compact(): Promise<void> {
    const generation = this.generation + 1;
    let next: PackFile;
    try {
      next = await this.folder.open(logName(generation));
    } catch {
      return;
    }
    if (this.closed) {
      next.close();
      await this.folder.remove(logName(generation)).catch(() => {});
      return;
    }
    const moved: Array<[FileNode, number]> = [];
    let writer: LogWriter;
    try {
      // the old log gets its waiting records first: they are the ones copied, and their calls wait on them
      this.log.writeNow();
      next.truncate(0);
      writer = new LogWriter(next, 0);
      writer.reserve(this.tree.liveBytes + GROW_STEP);
      for (const [path, node] of walkTree(this.tree.root)) {
        const parts = path.split('/');
        if (node.kind === 'dir') {
          writer.append(this.header(Op.Mkdir, parts, undefined, undefined, node.mtimeMs));
          continue;
        }
        const data = this.read(node);
        const header = this.header(Op.Write, parts, undefined, data, node.mtimeMs, node.executable);
        moved.push([node, writer.append(header, data) + header.length]);
      }
      writer.append(encodeHeader(Op.Checkpoint, Date.now(), ''));
      writer.writeNow();
      next.flush();
    } catch {
      next.close();
      await this.folder.remove(logName(generation)).catch(() => {});
      return;
    }
    for (const [node, at] of moved) node.at = at;
    const old = this.log.file;
    writer.onLost = (w) => this.rebuild(w);
    this.log = writer;
    this.generation = generation;
    old.close();
    await this.folder.remove(logName(generation - 1)).catch(() => {});
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    await this.compacting;
    this.closed = true;
    try {
      this.log.writeNow();
    } catch {
      // the calls waiting on those records are refused; the log keeps what landed
    } finally {
      this.log.file.close();
    }
  }

  /** After a write failed part-way: the tree as the log now holds it, which is what a reopen would find. */
  private rebuild(writer: LogWriter): void {
    const state = replay(writer.file);
    this.tree = state.tree;
    writer.end = state.end;
  }
}
