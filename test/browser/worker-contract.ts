import type { ConformanceRunner, ConformanceTestFn } from '../../src/conformance/index.js';

/** The OPFS layouts only a dedicated worker has, as the contract suite names them. */
export const WORKER_LAYOUTS = {
  opfs: { name: 'opfs packed (in a worker)', symlinks: false },
  'opfs-tree': { name: 'opfs as a tree, sync access handles (in a worker)', symlinks: false },
} as const;
export type WorkerLayout = keyof typeof WORKER_LAYOUTS;

/** What a test that failed in the worker sends back: enough for the page to report it as its own. */
export interface WorkerFailure {
  message: string;
  stack?: string;
  actual?: unknown;
  expected?: unknown;
  showDiff?: boolean;
}

/**
 * A runner that registers the suite's tests under their full names (groups joined by ` > `, a
 * repeated name numbered), so the page and the worker, each registering the same suite, agree on
 * which test is which without sending a function across.
 */
export function keyedRunner(
  register: (key: string, name: string, fn: ConformanceTestFn) => void,
  skip: (name: string) => void,
  groups: { describe: (name: string, body: () => void) => void } = { describe: (_name, body) => body() },
): Omit<ConformanceRunner, 'expect'> {
  let path: string[] = [];
  const seen = new Map<string, number>();
  return {
    // Whenever the runner calls a group's body, the groups around it are the ones open at the call.
    describe: (name, body) => {
      const full = [...path, name];
      groups.describe(name, () => {
        const outer = path;
        path = full;
        try {
          body();
        } finally {
          path = outer;
        }
      });
    },
    it: Object.assign(
      (name: string, fn: ConformanceTestFn) => {
        const full = [...path, name].join(' > ');
        const n = (seen.get(full) ?? 0) + 1;
        seen.set(full, n);
        register(n === 1 ? full : `${full} #${n}`, name, fn);
      },
      { skip },
    ),
  };
}
