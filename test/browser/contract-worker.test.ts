import '../../web/polyfills.js';
import { runContract } from '../contract/suite.js';
import { workerBackend } from './worker-backend.js';

// The same suite with the OPFS layouts only a dedicated worker has: a new workspace there is packed
// into one log; a workspace already stored as a tree keeps that layout, on sync access handles.
// (IndexedDB and memory in a worker add nothing: the same adapters run the suite in the page and in
// Node, and the worker bridge is the same for every backend.)
const fsWorker = () => new Worker(new URL('./fixtures/fs-worker.ts', import.meta.url), { type: 'module' });
runContract(workerBackend('opfs', fsWorker));
runContract(workerBackend('opfs-tree', fsWorker));
