import { inject } from 'vitest';
import { connectWorkspace, type ConnectOptions, type RemoteWorkspace } from '../../web/client.js';

let counter = 0;

/** A unique workspace name per test, so runs (and the files the project's other page runs meanwhile) never see each other's files. */
export const uniqueName = (label: string) =>
  `${label}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

/** Where test/browser/built-worker.ts serves the package's built worker from. */
const BUILT_WORKER_URL = '/dist/web/worker.js';

/**
 * Connect to the real worker: under `vitest run` the package's build of web/worker.ts
 * (dist/web/worker.js, built when stale and served as it is on disk), in watch
 * mode web/worker.ts itself through Vite (test/browser/built-worker.ts says why).
 */
export function connect(options: Omit<ConnectOptions, 'worker'>): Promise<RemoteWorkspace> {
  return connectWorkspace({
    ...options,
    worker: inject('builtWorker')
      ? new Worker(BUILT_WORKER_URL, { type: 'module' })
      : new Worker(new URL('../../web/worker.ts', import.meta.url), { type: 'module' }),
  });
}
