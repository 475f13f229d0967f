import '../../../web/polyfills.js';
import { expose } from 'comlink';
import { createIndexedDbFs } from '../../../src/fs/indexeddb.js';
import { createMemoryFs } from '../../../src/fs/memory.js';
import { createOpfsFs } from '../../../src/fs/opfs.js';
import type { WorkspaceFs } from '../../../src/fs/types.js';

type Kind = 'opfs-packed' | 'opfs-tree-sync' | 'opfs-tree-async' | 'indexeddb' | 'memory';

/** The adapters alone, in a worker, without the tools: where the time of the 1,000-file run goes. */
const api = {
  async run(kind: Kind, files: number, stamp: string): Promise<{ writeMs: number; readMs: number }> {
    const name = `sandpit-bench-raw-${kind}-${stamp}`;
    const fs: WorkspaceFs =
      kind === 'memory'
        ? createMemoryFs()
        : kind === 'indexeddb'
          ? createIndexedDbFs({ name, wipe: true })
          : kind === 'opfs-packed'
            ? await createOpfsFs({ name, layout: 'packed' })
            : await createOpfsFs({ name, layout: 'tree', access: kind === 'opfs-tree-sync' ? 'sync' : 'async' });
    for (let d = 0; d < 20; d++) await fs.mkdir(`/d${d}`, { recursive: true });
    const enc = new TextEncoder();
    let t = performance.now();
    for (let i = 0; i < files; i++)
      await fs.writeFile(`/d${i % 20}/f${i}.ts`, enc.encode(`export const v${i} = ${i};\n`));
    const writeMs = performance.now() - t;
    t = performance.now();
    for (let i = 0; i < files; i++) await fs.readFile(`/d${i % 20}/f${i}.ts`);
    const readMs = performance.now() - t;
    await fs.close?.();
    if (kind.startsWith('opfs')) await (await navigator.storage.getDirectory()).removeEntry(name, { recursive: true });
    if (kind === 'indexeddb') indexedDB.deleteDatabase(name);
    return { writeMs, readMs };
  },
};
export type RawBench = typeof api;
expose(api);
