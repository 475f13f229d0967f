import type { PackFile } from '../../src/fs/pack/pack-log.js';
import type { PackFolder } from '../../src/fs/pack/pack-store.js';

/**
 * A folder of growable byte arrays with the sync access handle's behaviour: one open handle per
 * file, and (like Chromium past its quota) a `truncate` beyond `capacity` total bytes does nothing.
 * `files` is the folder's content, so a test can cut a log short to play a crash.
 *
 * A file grown by `truncate` is held sparse, as a disk holds it: its array keeps the bytes up to
 * the last write and the size the handle reports is kept beside it (`reserved`); the bytes between
 * read as zeros. Every store's log reserves 1 MiB at its start, and the contract suite opens
 * thousands of stores: a zeroed 1 MiB array each, copied on every grow, was a fifth of the
 * contract file's CPU with the garbage collection it caused. An array set into `files` by a test
 * has the size of its length.
 */
export class MemoryPackFolder implements PackFolder {
  readonly files = new Map<string, Uint8Array>();
  readonly held = new Set<string>();
  /** the size a file's handle reports, where a `truncate` made it larger than the array held */
  private readonly reserved = new WeakMap<Uint8Array, number>();
  /** called on every write of any log */
  onWrite: (() => void) | null = null;
  /** called on every read of any log */
  onRead: (() => void) | null = null;
  /** this many next writes throw, as a sync access handle does on an I/O error */
  failWrites = 0;
  constructor(public capacity = Infinity) {}

  private sizeOf(bytes: Uint8Array): number {
    return Math.max(bytes.length, this.reserved.get(bytes) ?? 0);
  }

  private used(except: string): number {
    let total = 0;
    for (const [name, bytes] of this.files) if (name !== except) total += this.sizeOf(bytes);
    return total;
  }

  async names(): Promise<string[]> {
    return [...this.files.keys()];
  }

  async open(name: string): Promise<PackFile> {
    if (this.held.has(name)) throw Object.assign(new Error('already open'), { name: 'NoModificationAllowedError' });
    if (!this.files.has(name)) this.files.set(name, new Uint8Array(0));
    this.held.add(name);
    const folder = this;
    let closed = false;
    const bytes = () => {
      if (closed) throw Object.assign(new Error('closed'), { name: 'InvalidStateError' });
      return folder.files.get(name)!;
    };
    const file: PackFile = {
      getSize: () => folder.sizeOf(bytes()),
      read(buffer, { at }) {
        folder.onRead?.();
        const current = bytes();
        const count = Math.max(0, Math.min(buffer.length, folder.sizeOf(current) - at));
        const held = current.subarray(at, at + count);
        buffer.set(held);
        buffer.fill(0, held.length, count);
        return count;
      },
      write(buffer, { at }) {
        folder.onWrite?.();
        if (folder.failWrites > 0) {
          folder.failWrites--;
          throw new Error('the disk failed');
        }
        const room = Math.max(0, Math.min(buffer.length, folder.capacity - folder.used(name) - at));
        if (at + room > folder.sizeOf(bytes())) file.truncate(at + room);
        folder.hold(name, at + room).set(buffer.subarray(0, room), at);
        return room;
      },
      truncate(size) {
        const current = bytes();
        const was = folder.sizeOf(current);
        if (size > was && folder.used(name) + size > folder.capacity) return;
        if (size >= current.length) {
          // growing, or shrinking within the reserved zeros: the bytes held stay as they are
          folder.reserved.set(current, size);
          return;
        }
        const next = current.slice(0, size);
        folder.files.set(name, next);
      },
      flush() {
        bytes();
      },
      close() {
        closed = true;
        folder.held.delete(name);
      },
    };
    return file;
  }

  /** The file's array, holding at least `end` bytes (more, up to its size, so appends copy seldom). */
  private hold(name: string, end: number): Uint8Array {
    const current = this.files.get(name)!;
    if (end <= current.length) return current;
    const size = this.sizeOf(current);
    const next = new Uint8Array(Math.min(size, Math.max(end, current.length * 2, 64 * 1024)));
    next.set(current);
    this.reserved.set(next, size);
    this.files.set(name, next);
    return next;
  }

  async remove(name: string): Promise<void> {
    if (this.held.has(name)) throw Object.assign(new Error('open'), { name: 'NoModificationAllowedError' });
    if (!this.files.delete(name)) throw Object.assign(new Error('missing'), { name: 'NotFoundError' });
  }
}
