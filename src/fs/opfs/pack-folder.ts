import type { PackFile } from '../pack/pack-log.js';
import type { PackFolder } from '../pack/pack-store.js';

type SyncCapable = FileSystemFileHandle & { createSyncAccessHandle(): Promise<PackFile> };
type IterableDir = FileSystemDirectoryHandle & { keys(): AsyncIterableIterator<string> };

/**
 * A packed workspace's OPFS folder. A sync access handle is exclusive: after a reload the old
 * worker's handle can outlive the Web Lock it held by a moment, so opening waits for it a while.
 */
export function opfsPackFolder(dir: FileSystemDirectoryHandle, waitMs = 3000): PackFolder {
  return {
    async names() {
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
