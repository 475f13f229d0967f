import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that cost 10 CPU-seconds or more in a fresh clone's `npm test`, heaviest first
 * (SANDPIT_CPU_LOG, docs/development.md). A fresh clone has no record of durations, so vitest
 * runs the largest files first, and these are small files that import a big suite or start big
 * work: the run ended with both workers on two of them while nothing else was left. Started
 * first, they overlap the many small files instead.
 */
export const HEAVY_FILES = [
  'test/package/bundle-split.test.ts',
  'test/docs/quick-starts.test.ts',
  'test/package/package.test.ts',
  'test/contract/node.test.ts',
  'test/shell/differential.test.ts',
  'test/package/docs.test.ts',
  'test/git/clone-memory.test.ts',
  'test/hardening/paths-node.test.ts',
];

/**
 * The e2e files of 20 wall-seconds or more in a fresh clone, longest first. Vitest's own order
 * started `demo.test.ts` (about 20 s) last: the e2e project then ran it alone for the 20 s after
 * the browser project ended, and the node files waited for its worker.
 */
export const LONG_E2E_FILES = [
  'test/e2e/reach.test.ts',
  'test/e2e/demo.test.ts',
  'test/e2e/git.test.ts',
  'test/e2e/trust.test.ts',
  'test/e2e/preview.test.ts',
];

/**
 * The browser and e2e projects first (they share the machine with each other for the first
 * third of a run), the long e2e files first among them; then the node files, the heavy ones
 * first; in each, vitest's own order.
 */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const name = spec.project.name;
      const file = relative(spec.project.config.root, spec.moduleId).replaceAll('\\', '/');
      if (name === 'e2e') {
        const long = LONG_E2E_FILES.indexOf(file);
        return long === -1 ? -1 : long - LONG_E2E_FILES.length - 1;
      }
      if (name === 'browser') return -1;
      const heavy = HEAVY_FILES.indexOf(file);
      return heavy === -1 ? HEAVY_FILES.length : heavy;
    };
    // Array.prototype.sort is stable: equal ranks keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
