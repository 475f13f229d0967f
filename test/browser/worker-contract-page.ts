import { wrap } from 'comlink';
import { describe, expect, inject, it } from 'vitest';
import { type FaultPoints, runConformance } from '../../src/conformance/index.js';
import { loadScenarios } from '../patch/scenarios.js';
import { keyedRunner, WORKER_LAYOUTS, type WorkerFailure, type WorkerLayout } from './worker-contract.js';

// The same suite on the OPFS layouts only a dedicated worker has: a new workspace there is packed
// into one log; a workspace already stored as a tree keeps that layout, on sync access handles.
// The suite runs in the worker (test/browser/fixtures/contract-worker.ts), workspace and all, so a
// test crosses once instead of once per filesystem call; the page registers the same tests by the
// same names and reports each worker result as its own. (IndexedDB and memory in a worker add
// nothing: the same adapters run the suite in the page and in Node.) One test file per layout
// (contract-worker-*.test.ts), so the browser project's two pages run them side by side.
interface ContractWorker {
  keys(layout: WorkerLayout): Promise<string[]>;
  run(layout: WorkerLayout, key: string, faultPoints: FaultPoints): Promise<WorkerFailure | null>;
}

function failure(f: WorkerFailure): Error {
  const error = Object.assign(
    new Error(f.message),
    f.showDiff ? { actual: f.actual, expected: f.expected, showDiff: true } : {},
  );
  // The worker's stack names the suite's own lines; the page's would name only this file.
  if (f.stack) error.stack = f.stack;
  return error;
}

/** Register the contract suite for one worker layout: each test runs in a worker of this file's own. */
export function registerWorkerContract(layout: WorkerLayout): void {
  // As in the page (contract-opfs.test.ts): a spread of the failing-storage points unless HARDENING=full.
  const faultPoints: FaultPoints = inject('hardening').full ? 'every' : 'spread';
  const worker = wrap<ContractWorker>(
    new Worker(new URL('./fixtures/contract-worker.ts', import.meta.url), { type: 'module' }),
  );
  const registered: string[] = [];
  const runner = keyedRunner(
    (key, name) => {
      registered.push(key);
      it(name, async () => {
        const failed = await worker.run(layout, key, faultPoints);
        if (failed) throw failure(failed);
      });
    },
    (name) => it.skip(name, () => {}),
    { describe },
  );
  // Never run: the page only names the tests; the worker's copy of the suite makes the workspaces.
  const named = { ...WORKER_LAYOUTS[layout], make: () => Promise.reject(new Error('the suite runs in the worker')) };
  runConformance(named, { ...runner, expect, patchScenarios: loadScenarios() });
  it(`contract: ${WORKER_LAYOUTS[layout].name}: the worker registered the same tests`, async () => {
    // Sorted: a runner may open a group's body after its siblings' tests, so only the set must match.
    expect((await worker.keys(layout)).sort()).toEqual([...registered].sort());
  });
}
