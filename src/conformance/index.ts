// The `sandpit/conformance` entry: the contract suite every Sandpit backend passes, exported so
// the author of a new WorkspaceFs (S3, a database, a remote filesystem) can run it too.
import { backendFsContract } from './suites/backend-fs.contract.js';
import type { WorkspaceFs } from '../index.js';
import { describe, registerWith, type ConformanceRunner } from './api.js';
import { applyPatchContract, type PatchScenario } from './suites/apply-patch.contract.js';
import type { ConformanceBackend } from './backend.js';
import { concurrencyContract } from './suites/concurrency.contract.js';
import { confinementContract } from './suites/confinement.contract.js';
import { editFileContract } from './suites/edit-file.contract.js';
import { type FaultPoints, faultsContract } from './suites/faults.contract.js';
import { fileBytesContract } from './suites/file-bytes.contract.js';
import { forkMergeContract } from './suites/fork-merge.contract.js';
import { globContract } from './suites/glob.contract.js';
import { importExportContract } from './suites/import-export.contract.js';
import { listDirectoryContract } from './suites/list-directory.contract.js';
import { losslessContract } from './suites/lossless.contract.js';
import { pathToolsContract } from './suites/path-tools.contract.js';
import { policyContract } from './suites/policy.contract.js';
import { readFileContract } from './suites/read-file.contract.js';
import { searchFilesContract } from './suites/search-files.contract.js';
import { seedTree } from './seed.js';
import { snapshotsContract } from './suites/snapshots.contract.js';
import { writeToolsContract } from './suites/write-tools.contract.js';

export type {
  ConformanceExpect,
  ConformanceMatchers,
  ConformanceRunner,
  ConformanceTest,
  ConformanceTestFn,
} from './api.js';
export type { ConformanceBackend, MadeBackend } from './backend.js';
export type { PatchScenario } from './suites/apply-patch.contract.js';
export type { FaultPoints } from './suites/faults.contract.js';
export { seedTree } from './seed.js';
export { faultyFs, MUTATING_OPS, type FaultPlan, type FsOp } from './faulty-fs.js';

/** Makes a fresh, empty backend for one test. Called once or more per test. */
export type MakeFs = () => WorkspaceFs | Promise<WorkspaceFs>;

/** The test runner's functions, plus what the suite cannot learn from the backend itself. */
export interface ConformanceOptions extends ConformanceRunner {
  /** shown in test names as `contract: <name>` (default `custom backend`); ignored for a {@link ConformanceBackend} */
  name?: string;
  /**
   * Whether the backend holds symbolic links (default: true). A backend without them must say so
   * here, and its `symlink` must fail with a Node code such as EPERM; the link tests are skipped.
   * Ignored for a {@link ConformanceBackend}, which says it itself.
   */
  symlinks?: boolean;
  /** Called after each test with the backend `makeFs` made, to free it (close a database, drop a bucket). */
  dispose?: (fs: WorkspaceFs) => void | Promise<void>;
  /** Extra apply_patch scenarios, each run as one test (Sandpit's own run passes its 70-odd folders). */
  patchScenarios?: readonly PatchScenario[];
  /**
   * Which operations the failing-storage tests fail (default `'every'`: each counted operation in
   * turn, for every kind of failure, without and with snapshots). `'spread'` is for a backend where
   * a fresh workspace per operation is slow: every operation is still failed with EIO (each write
   * once, by the test that fails writes only, whose checks are the stricter; each read by the test
   * that fails reads too), and with snapshots on every write to the workspace's own files; the other kinds of
   * failure, and the snapshot repository's own writes, are failed at a spread of points (the first,
   * the last and every third). The rollback never looks at the kind of failure, which decides only
   * the error's code.
   */
  faultPoints?: FaultPoints;
  /**
   * How many of a failing-storage test's failure points run at once (default 1), each on a fresh
   * workspace of its own. For a backend that waits on I/O (a browser store, a remote one) and whose
   * `make` gives independent workspaces when called again before the last is cleaned up.
   */
  faultConcurrency?: number;
}

/**
 * Register the whole contract suite, every tool against one backend: path confinement, errors
 * with Node codes, lossless bytes and line endings, symlinks (or their declared absence),
 * concurrency, atomic rename under injected faults, snapshots and undo. Each test gets a fresh
 * backend laid out by {@link seedTree}: the workspace root `/ws` plus `/outside` and `/ws2`
 * beside it, so escapes can be tried. A failing test names the tool and the behaviour broken.
 *
 * @example
 * ```ts
 * // my-fs.test.ts, under vitest
 * import { describe, expect, test } from 'vitest';
 * import { runConformance } from 'sandpit-workspace/conformance';
 * import { createMyFs } from './my-fs.js';
 *
 * runConformance(() => createMyFs(), { describe, test, expect, name: 'my-fs' });
 * ```
 *
 * @param backend - a function making a fresh, empty backend, or a full {@link ConformanceBackend}
 *   for a backend whose root is not `/ws` (a real folder, say)
 * @param options - the runner's `test` (or `it`), `expect`, and optionally `describe`
 */
export function runConformance(backend: MakeFs | ConformanceBackend, options: ConformanceOptions): void {
  const b = typeof backend === 'function' ? fromMakeFs(backend, options) : backend;
  registerWith(options, () => {
    // The group name is what Sandpit's own runs have always shown, so reports stay comparable.
    describe(`contract: ${b.name}`, () => {
      readFileContract(b);
      listDirectoryContract(b);
      globContract(b);
      searchFilesContract(b);
      confinementContract(b);
      losslessContract(b);
      faultsContract(b, options.faultPoints, options.faultConcurrency);
      concurrencyContract(b);
      writeToolsContract(b);
      editFileContract(b);
      applyPatchContract(b, options.patchScenarios);
      pathToolsContract(b);
      fileBytesContract(b);
      policyContract(b);
      snapshotsContract(b);
      importExportContract(b);
      backendFsContract(b);
      forkMergeContract(b);
    });
  });
}

function fromMakeFs(makeFs: MakeFs, options: ConformanceOptions): ConformanceBackend {
  return {
    name: options.name ?? 'custom backend',
    symlinks: options.symlinks ?? true,
    async make(seed = {}, needs) {
      const fs = await makeFs();
      await seedTree(fs, seed, needs);
      return {
        fs,
        root: '/ws',
        outside: '/outside',
        cleanup: async () => {
          await options.dispose?.(fs);
        },
      };
    },
  };
}
