import { connectWorkspace, type ConnectOptions, type RemoteWorkspace } from '../../web/client.js';

let counter = 0;

/** A unique workspace name per test, so runs (and the files the project's other page runs meanwhile) never see each other's files. */
export const uniqueName = (label: string) =>
  `${label}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

/** Connect to the real worker module (web/worker.ts), served by Vite as the page's worker. */
export function connect(options: Omit<ConnectOptions, 'worker'>): Promise<RemoteWorkspace> {
  return connectWorkspace({
    ...options,
    worker: new Worker(new URL('../../web/worker.ts', import.meta.url), { type: 'module' }),
  });
}
