import type { TestProject } from 'vitest/node';
import { buildDist } from './build-dist.js';

/**
 * Build `dist/` once for the whole node project, before any file runs: two dozen files drive the
 * compiled CLI, and each used to rebuild it in turn.
 */
export default async function setup(project: TestProject): Promise<void> {
  await buildDist();
  project.provide('cliBuiltThisRun', true);
}
