import type { TestProject } from 'vitest/node';
import { FIXTURE_PACKAGES } from '../packages/fixture-tree.js';
import { startNpmRegistry } from '../support/npm-registry.js';

/** Start one local npm registry on 127.0.0.1 (with CORS) for the Chromium install tests, and hand its URL to them. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = await startNpmRegistry(FIXTURE_PACKAGES);
  project.provide('npmRegistry', { url: registry.url });
  return () => registry.close();
}
