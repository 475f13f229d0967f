import { createOpfsFs, type OpfsFsOptions } from '../../src/fs/opfs.js';
import type { BackendUnderTest } from './backend.js';
import { seedTree } from './seed-backend.js';

let counter = 0;

let root: Promise<FileSystemDirectoryHandle> | null = null;
/**
 * The origin's OPFS root, asked for once per realm. Each `navigator.storage.getDirectory()` is a
 * round trip costing the browser about 1.5 ms of CPU, and a contract run makes about 480
 * workspaces, each of which asked for it once to make its folder and once to remove it. The
 * handle names the same folder every time, so this shares no workspace state between tests.
 */
export function opfsRoot(): Promise<FileSystemDirectoryHandle> {
  root ??= navigator.storage.getDirectory();
  return root;
}

/** A fresh OPFS folder per test, removed afterwards. `access` picks the file I/O path. */
export function opfsBackend(access: OpfsFsOptions['access'] = 'auto'): BackendUnderTest {
  return {
    name: access === 'auto' ? 'opfs' : `opfs (${access})`,
    symlinks: false,
    async make(seed = {}, needs) {
      const name = `sandpit-contract-${Date.now().toString(36)}-${++counter}`;
      const fs = await createOpfsFs({ name, access, directory: await opfsRoot() });
      await seedTree(fs, seed, needs);
      return {
        fs,
        root: '/ws',
        outside: '/outside',
        cleanup: () => removeWhenIdle(name),
      };
    },
  };
}

/**
 * Remove a test's folder. A call that failed mid-way (the fault tests) can leave sibling writes
 * of the same batch still in flight, and OPFS refuses to remove a file that is open for writing.
 */
export async function removeWhenIdle(name: string): Promise<void> {
  const root = await opfsRoot();
  for (let attempt = 0; ; attempt++) {
    try {
      await root.removeEntry(name, { recursive: true });
      return;
    } catch (error) {
      if ((error as { name?: string }).name === 'NotFoundError') return;
      if ((error as { name?: string }).name !== 'NoModificationAllowedError' || attempt >= 40) throw error;
      await new Promise((r) => setTimeout(r, 25));
    }
  }
}
