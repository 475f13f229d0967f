import { describe } from 'vitest';
import type { BackendUnderTest } from './backend.js';
import { readFileContract } from './read-file.contract.js';

/** Every tool's contract, run against one backend. */
export function runContract(backend: BackendUnderTest): void {
  describe(`contract: ${backend.name}`, () => {
    readFileContract(backend);
  });
}
