import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * A temporary folder for the e2e workers' Chromium profiles, removed when the run ends. Each worker
 * launches its own Chromium (test/e2e/playground.ts), and vitest kills a worker 500 ms after asking
 * it to stop: on a loaded machine that can come before Playwright has removed the profile folder.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-e2e-browsers-'));
  project.provide('e2eBrowserTemp', dir);
  return () => rm(dir, { recursive: true, force: true });
}
