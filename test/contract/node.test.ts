import { memoryBackend } from './memory-backend.js';
import { nodeBackend } from './node-backend.js';
import { packedBackend } from './packed-backend.js';
import { runContract } from './suite.js';

runContract(memoryBackend);
runContract(nodeBackend);
runContract(packedBackend);
