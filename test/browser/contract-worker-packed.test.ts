import { registerWorkerContract } from './worker-contract-page.js';

// The contract suite on a new OPFS workspace in a dedicated worker: packed into one log (see worker-contract-page.ts).
registerWorkerContract('opfs');
