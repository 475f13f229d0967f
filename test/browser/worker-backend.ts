import { wrap } from 'comlink';
import { FsError, type FsErrorCode } from '../../src/fs/errors.js';
import { makeStat } from '../../src/fs/stat.js';
import type { FsStat, WorkspaceFs } from '../../src/fs/types.js';
import type { BackendUnderTest, MadeBackend } from '../contract/backend.js';
import type { WorkerBackendKind } from './fixtures/fs-worker.js';
import { seedTree } from '../contract/seed-backend.js';

interface FsWorker {
  create(kind: string, name: string): Promise<boolean>;
  op(name: string, method: string, args: unknown[]): Promise<{ value?: unknown; code?: string }>;
  destroy(kind: string, name: string): Promise<void>;
  outsideState(name: string, base: string, root: string): Promise<Record<string, string>>;
}

/** A workspace in the worker, plus the hardening world's outside walk run there in one message. */
export interface WorkerMade extends MadeBackend {
  outsideState(base: string, root: string): Promise<Record<string, string>>;
}

const METHODS = [
  'readFile',
  'writeFile',
  'readdir',
  'readdirTypes',
  'stat',
  'lstat',
  'mkdir',
  'rmdir',
  'unlink',
  'rename',
  'readlink',
  'symlink',
];
let counter = 0;

/**
 * A backend that lives in a dedicated worker (test/browser/fixtures/fs-worker.ts), so the OPFS
 * adapter runs packed, on a sync access handle. Each operation crosses as plain JSON; errors come back
 * as their Node code.
 */
export function workerBackend(
  kind: WorkerBackendKind,
  makeWorker: () => Worker,
): Omit<BackendUnderTest, 'make'> & { make: (...args: Parameters<BackendUnderTest['make']>) => Promise<WorkerMade> } {
  let remote: ReturnType<typeof wrap<FsWorker>> | null = null;
  return {
    name: {
      memory: 'memory (in a worker)',
      opfs: 'opfs packed (in a worker)',
      'opfs-tree': 'opfs as a tree, sync access handles (in a worker)',
      indexeddb: 'indexeddb (in a worker)',
    }[kind],
    symlinks: kind === 'indexeddb' || kind === 'memory',
    async make(seed = {}, needs) {
      remote ??= wrap<FsWorker>(makeWorker());
      // Random too: the browser project's other page may make one in the same millisecond.
      const name = `sandpit-wbackend-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
      const packed = await remote.create(kind, name);
      if (kind === 'opfs' && !packed) throw new Error('the OPFS workspace in the worker did not come out packed');
      const r = remote;
      const fs = {
        capabilities: {
          symlinks: kind === 'indexeddb' || kind === 'memory',
          atomicRename: true,
          modes: kind !== 'opfs-tree',
        },
      } as Record<string, unknown>;
      for (const method of METHODS) {
        fs[method] = async (...args: unknown[]) => {
          const answer = await r.op(name, method, args);
          if (answer.code) throw new FsError(answer.code as FsErrorCode, method);
          if (method === 'stat' || method === 'lstat') {
            const s = answer.value as Omit<FsStat, 'isFile' | 'isDirectory' | 'isSymbolicLink'>;
            return makeStat(s.type, s);
          }
          return answer.value;
        };
      }
      await seedTree(fs as unknown as WorkspaceFs, seed, needs);
      return {
        fs: fs as unknown as WorkspaceFs,
        root: '/ws',
        outside: '/outside',
        cleanup: () => r.destroy(kind, name),
        outsideState: (base, root) => r.outsideState(name, base, root),
      };
    },
  };
}
