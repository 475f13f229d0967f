import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildDist } from './build-dist.js';

/**
 * Build `dist/` once for the node and e2e projects, before any file runs: two dozen files drive the
 * compiled CLI, and each used to rebuild it in turn. The demo page is built once too, but only
 * when a file first asks for it (test/bundle/web-build.ts), into a folder this run owns.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildDist();
  project.provide('cliBuiltThisRun', true);
  // One folder per run, whichever project sets up first: the node and e2e projects share the build.
  const demoRoot = join(tmpdir(), `sandpit-demo-build-${process.pid}`);
  await mkdir(demoRoot, { recursive: true });
  project.provide('sharedDemoBuild', demoRoot);
  return () => rm(demoRoot, { recursive: true, force: true });
}
