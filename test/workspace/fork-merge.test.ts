import { describe, expect, it } from 'vitest';
import { describe as suite, registerWith } from '../../src/conformance/api.js';
import { forkMergeContract } from '../../src/conformance/suites/fork-merge.contract.js';
import { memoryBackend } from '../contract/memory-backend.js';
import { nodeBackend } from '../contract/node-backend.js';

// The fork-and-merge contract alone on Node's backends (the full contract run includes it too), so
// a change to forks can be checked without running every suite.
for (const backend of [memoryBackend, nodeBackend])
  registerWith({ describe, it, expect }, () => suite(`fork-merge: ${backend.name}`, () => forkMergeContract(backend)));
