import type { FsCapabilities, WorkspaceFs } from './types.js';

/** An opened backend: its filesystem and what its owner must call around its life. */
export interface OpenedBackend {
  /** the opened backend */
  fs: WorkspaceFs;
  /** make every change so far survive a reload (IndexedDB writes its tree lazily) */
  flush?: () => Promise<void>;
  /** let go of the storage (the packed OPFS log's access handle); call after the workspace is closed */
  close?: () => Promise<void>;
}

/** A backend a browser workspace can be stored in: everything a host, a protocol or a UI needs to know about it. */
export interface BackendDescriptor<K extends string = string> {
  /** the name clients pass (`backend: 'opfs'`) */
  readonly kind: K;
  /** a short name for a person */
  readonly label: string;
  /** what becomes of the files, for a person choosing */
  readonly note: string;
  /** whether the files outlive the page; a persistent workspace is opened by one tab at a time */
  readonly persistent: boolean;
  /** what every workspace on it can do at least (its `fs.capabilities` may say more, e.g. modes when packed) */
  readonly capabilities: FsCapabilities;
  /** whether this environment has what the backend needs */
  isAvailable(): boolean;
  /** Open (or create) the workspace stored under `name`. The adapter is imported on demand. */
  create(name: string): Promise<OpenedBackend>;
  /** Remove the workspace stored under `name`, if any (it must not be open). */
  destroy(name: string): Promise<void>;
}

/** The storage name of a workspace: a prefix keeps Sandpit's databases and folders apart from the page's own. */
export const storageName = (name: string): string => `sandpit-${name}`;

const hasIndexedDb = () => typeof (globalThis as { indexedDB?: unknown }).indexedDB !== 'undefined';
const opfsRoot = () =>
  (globalThis as { navigator?: { storage?: { getDirectory?: () => Promise<FileSystemDirectoryHandle> } } }).navigator
    ?.storage?.getDirectory;

/**
 * Every browser backend, listed once. Each adapter is imported on demand, so a worker serving
 * OPFS never downloads memfs or lightning-fs (together most of the worker's weight besides git).
 */
export const WORKSPACE_BACKENDS = [
  {
    kind: 'memory',
    label: 'Memory',
    note: 'gone when you reload',
    persistent: false,
    capabilities: { symlinks: true, atomicRename: true, modes: true },
    isAvailable: () => true,
    async create() {
      const { createMemoryFs } = await import('./memory.js');
      return { fs: createMemoryFs() };
    },
    async destroy() {},
  },
  {
    kind: 'indexeddb',
    label: 'IndexedDB',
    note: 'kept across reloads',
    persistent: true,
    capabilities: { symlinks: true, atomicRename: true, modes: true },
    isAvailable: hasIndexedDb,
    async create(name) {
      const { createIndexedDbFs } = await import('./indexeddb.js');
      const fs = createIndexedDbFs({ name: storageName(name) });
      return { fs, flush: () => fs.flush() };
    },
    async destroy(name) {
      if (hasIndexedDb()) indexedDB.deleteDatabase(storageName(name));
    },
  },
  {
    kind: 'opfs',
    label: 'OPFS',
    note: 'kept across reloads',
    persistent: true,
    capabilities: { symlinks: false, atomicRename: true },
    isAvailable: () => typeof opfsRoot() === 'function',
    async create(name) {
      const { createOpfsFs } = await import('./opfs.js');
      const fs = await createOpfsFs({ name: storageName(name) });
      return { fs, close: async () => fs.close?.() };
    },
    async destroy(name) {
      const root = await navigator.storage.getDirectory();
      await root.removeEntry(storageName(name), { recursive: true }).catch((error: unknown) => {
        if ((error as { name?: string }).name !== 'NotFoundError') throw error;
      });
    },
  },
] as const satisfies readonly BackendDescriptor[];

/** Where a browser workspace keeps its files. `memory` is gone when the worker ends, by design. */
export type BackendKind = (typeof WORKSPACE_BACKENDS)[number]['kind'];

/** The names of the browser backends, in the list's order. */
export const BACKEND_KINDS: readonly BackendKind[] = WORKSPACE_BACKENDS.map((b) => b.kind);

/** The descriptor of a backend by kind, or undefined for a name no backend has. */
export function backendOf(kind: unknown): BackendDescriptor<BackendKind> | undefined {
  return (WORKSPACE_BACKENDS as readonly BackendDescriptor<BackendKind>[]).find((b) => b.kind === kind);
}
