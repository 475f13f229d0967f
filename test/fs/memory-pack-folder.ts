import type { PackFile } from '../../src/fs/pack/pack-log.js';
import type { PackFolder } from '../../src/fs/pack/pack-store.js';

/**
 * A folder of growable byte arrays with the sync access handle's behaviour: one open handle per
 * file, and (like Chromium past its quota) a `truncate` beyond `capacity` total bytes does nothing.
 * `files` is the folder's content, so a test can cut a log short to play a crash.
 */
export class MemoryPackFolder implements PackFolder {
  readonly files = new Map<string, Uint8Array>();
  readonly held = new Set<string>();
  /** called on every write of any log */
  onWrite: (() => void) | null = null;
  /** this many next writes throw, as a sync access handle does on an I/O error */
  failWrites = 0;
  constructor(public capacity = Infinity) {}

  private used(except: string): number {
    let total = 0;
    for (const [name, bytes] of this.files) if (name !== except) total += bytes.length;
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
      getSize: () => bytes().length,
      read(buffer, { at }) {
        const part = bytes().subarray(at, at + buffer.length);
        buffer.set(part);
        return part.length;
      },
      write(buffer, { at }) {
        const current = bytes();
        folder.onWrite?.();
        if (folder.failWrites > 0) {
          folder.failWrites--;
          throw new Error('the disk failed');
        }
        const room = Math.max(0, Math.min(buffer.length, folder.capacity - folder.used(name) - at));
        if (at + room > current.length) file.truncate(at + room);
        folder.files.get(name)!.set(buffer.subarray(0, room), at);
        return room;
      },
      truncate(size) {
        const current = bytes();
        if (size > current.length && folder.used(name) + size > folder.capacity) return;
        const next = new Uint8Array(size);
        next.set(current.subarray(0, size));
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

  async remove(name: string): Promise<void> {
    if (this.held.has(name)) throw Object.assign(new Error('open'), { name: 'NoModificationAllowedError' });
    if (!this.files.delete(name)) throw Object.assign(new Error('missing'), { name: 'NotFoundError' });
  }
}
