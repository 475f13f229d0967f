import '../../web/polyfills.js';
import { runContract } from '../contract/suite.js';
import { workerBackend } from './worker-backend.js';

// The same suite with the backends inside a dedicated worker: a new OPFS workspace there is packed
// into one log; a workspace already stored as a tree keeps that layout, on sync access handles.
// (Memory in a worker adds nothing these three do not cover: the worker bridge is the same, and
// memory itself runs the suite in the page and in Node.)
const fsWorker = () => new Worker(new URL('./fixtures/fs-worker.ts', import.meta.url), { type: 'module' });
runContract(workerBackend('opfs', fsWorker));
runContract(workerBackend('opfs-tree', fsWorker));
runContract(workerBackend('indexeddb', fsWorker));
