import { createIndexedDbFs } from '../../src/fs/indexeddb.js';
import type { BackendUnderTest } from './backend.js';
import { seedTree } from './seed-backend.js';

let counter = 0;

/** lightning-fs in a fresh IndexedDB database per test, deleted afterwards. */
export const indexedDbBackend: BackendUnderTest = {
  name: 'indexeddb',
  symlinks: true,
  async make(seed = {}, needs) {
    const name = `sandpit-contract-${Date.now().toString(36)}-${++counter}`;
    const fs = createIndexedDbFs({ name, wipe: true });
    await seedTree(fs, seed, needs);
    return {
      fs,
      root: '/ws',
      outside: '/outside',
      // lightning-fs closes its connection when idle, so the deletion completes after the test.
      cleanup: async () => {
        indexedDB.deleteDatabase(name);
      },
    };
  },
};
