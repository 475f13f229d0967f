import { memoryBackend } from '../contract/memory-backend.js';
import { runContract } from '../contract/suite.js';

runContract(memoryBackend);
