import type { PackFile } from '../pack/pack-log.js';
import type { PackFolder } from '../pack/pack-store.js';

type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle(): Promise<PackFile> };
type IterableDir = FileSystemDirectoryHandle & { keys(): AsyncIterableIterator<string> };

/**
 * A packed workspace's OPFS folder. A sync access handle is exclusive: after a reload the old
 * worker's handle can outlive the Web Lock it held by a moment, so opening waits for it a while.
 * `listed`: the folder's names, read by the caller a moment ago (createOpfsFs lists it to choose
 * the layout); the first `names()` answers with them instead of a second listing, a round trip to
 * the browser on every open.
 */
export function opfsPackFolder(dir: FileSystemDirectoryHandle, waitMs = 3000, listed?: string[]): PackFolder {
  let known = listed;
  return {
    async names() {
      if (known) {
        const names = known;
        known = undefined;
        return names;
      }
      const names: string[] = [];
      for await (const name of (dir as IterableDir).keys()) names.push(name);
      return names;
    },
    async open(name) {
      const handle = (await dir.getFileHandle(name, { create: true })) as SyncCapable;
      const until = Date.now() + waitMs;
      for (;;) {
        try {
          return await handle.createSyncAccessHandle();
        } catch (error) {
          if ((error as { name?: string }).name !== 'NoModificationAllowedError' || Date.now() > until) throw error;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    },
    remove: (name) => dir.removeEntry(name),
  };
}
