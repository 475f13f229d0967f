import { expect } from 'vitest';
import type { ConformanceRunner } from '../../src/conformance/index.js';

/** A test as a minimal runner holds it: a name and a body. */
export interface CollectedTest {
  name: string;
  run(): Promise<void>;
}

/**
 * The smallest runner the suite accepts: a `test` that only records, no `describe`, no hooks.
 * It proves the suite needs nothing else from a runner, and lets a test run a whole suite
 * against a broken backend and read which tests fail.
 */
export function collectingRunner(): { runner: ConformanceRunner; tests: CollectedTest[] } {
  const tests: CollectedTest[] = [];
  const test = (name: string, run: () => Promise<void>) => {
    tests.push({ name, run });
  };
  return { runner: { test, expect }, tests };
}

/** Run collected tests one after another; the names of those that threw. */
export async function failures(tests: CollectedTest[]): Promise<string[]> {
  const failed: string[] = [];
  for (const t of tests) {
    try {
      await t.run();
    } catch {
      failed.push(t.name);
    }
  }
  return failed;
}
