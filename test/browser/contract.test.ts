import '../../web/polyfills.js';
import { indexedDbBackend } from '../contract/indexeddb-backend.js';
import { memoryBackend } from '../contract/memory-backend.js';
import { opfsBackend } from '../contract/opfs-backend.js';
import { runContract } from '../contract/suite.js';

runContract(memoryBackend);
runContract(indexedDbBackend);
runContract(opfsBackend());
