import { registerWorkerContract } from './worker-contract-page.js';

// The contract suite on an OPFS workspace stored as a tree, on sync access handles in a dedicated worker (see worker-contract-page.ts).
registerWorkerContract('opfs-tree');
