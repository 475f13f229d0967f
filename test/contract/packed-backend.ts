import { openPackStore } from '../../src/fs/pack/pack-store.js';
import { MemoryPackFolder } from '../fs/memory-pack-folder.js';
import type { BackendUnderTest } from './backend.js';
import { seedTree } from './seed-backend.js';

/**
 * The packed OPFS layout's store over a folder held in memory: the same log, tree and compaction
 * code that runs on a sync access handle in Chromium (where contract-worker.test.ts runs it for real).
 */
export const packedBackend: BackendUnderTest = {
  name: 'packed log (in memory)',
  symlinks: false,
  async make(seed = {}, needs) {
    const fs = await openPackStore(new MemoryPackFolder());
    await seedTree(fs, seed, needs);
    return { fs, root: '/ws', outside: '/outside', cleanup: () => fs.close() };
  },
};
