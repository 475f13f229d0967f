import { describe } from 'vitest';
import { applyPatchContract } from './apply-patch.contract.js';
import type { BackendUnderTest } from './backend.js';
import { editFileContract } from './edit-file.contract.js';
import { fileBytesContract } from './file-bytes.contract.js';
import { globContract } from './glob.contract.js';
import { listDirectoryContract } from './list-directory.contract.js';
import { pathToolsContract } from './path-tools.contract.js';
import { policyContract } from './policy.contract.js';
import { readFileContract } from './read-file.contract.js';
import { snapshotsContract } from './snapshots.contract.js';
import { searchFilesContract } from './search-files.contract.js';
import { confinementContract } from './confinement.contract.js';
import { losslessContract } from './lossless.contract.js';
import { faultsContract } from './faults.contract.js';
import { concurrencyContract } from './concurrency.contract.js';
import { writeToolsContract } from './write-tools.contract.js';

/** Every tool's contract, run against one backend. */
export function runContract(backend: BackendUnderTest): void {
  describe(`contract: ${backend.name}`, () => {
    readFileContract(backend);
    listDirectoryContract(backend);
    globContract(backend);
    searchFilesContract(backend);
    confinementContract(backend);
    losslessContract(backend);
    faultsContract(backend);
    concurrencyContract(backend);
    writeToolsContract(backend);
    editFileContract(backend);
    applyPatchContract(backend);
    pathToolsContract(backend);
    fileBytesContract(backend);
    policyContract(backend);
    snapshotsContract(backend);
  });
}
