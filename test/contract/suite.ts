import { describe } from 'vitest';
import type { BackendUnderTest } from './backend.js';
import { editFileContract } from './edit-file.contract.js';
import { fileBytesContract } from './file-bytes.contract.js';
import { pathToolsContract } from './path-tools.contract.js';
import { policyContract } from './policy.contract.js';
import { readFileContract } from './read-file.contract.js';
import { writeToolsContract } from './write-tools.contract.js';

/** Every tool's contract, run against one backend. */
export function runContract(backend: BackendUnderTest): void {
  describe(`contract: ${backend.name}`, () => {
    readFileContract(backend);
    writeToolsContract(backend);
    editFileContract(backend);
    pathToolsContract(backend);
    fileBytesContract(backend);
    policyContract(backend);
  });
}
