import type { WorkspaceFs } from '../src/fs/types.js';
import type { BackendKind } from './protocol.js';

/** An opened backend; `flush` makes every change so far survive a reload, `close` lets go of its storage. */
export interface OpenedBackend {
  fs: WorkspaceFs;
  flush?: () => Promise<void>;
  close?: () => Promise<void>;
}

/** The storage name of a workspace: a prefix keeps Sandpit's databases and folders apart from the page's own. */
export const storageName = (name: string) => `sandpit-${name}`;

/**
 * Open the backend a client asked for. Each adapter is imported on demand, so a worker serving
 * OPFS never downloads memfs or lightning-fs (together most of the worker's weight besides git).
 */
export async function openBackend(kind: BackendKind, name: string): Promise<OpenedBackend> {
  switch (kind) {
    case 'memory': {
      const { createMemoryFs } = await import('../src/fs/memory.js');
      return { fs: createMemoryFs() };
    }
    case 'indexeddb': {
      const { createIndexedDbFs } = await import('../src/fs/indexeddb.js');
      const fs = createIndexedDbFs({ name: storageName(name) });
      return { fs, flush: () => fs.flush() };
    }
    case 'opfs': {
      const { createOpfsFs } = await import('../src/fs/opfs.js');
      const fs = await createOpfsFs({ name: storageName(name) });
      return { fs, close: async () => fs.close?.() };
    }
  }
}
