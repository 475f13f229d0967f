import type { TestProject } from 'vitest/node';
import { FIXTURE_PACKAGES } from '../packages/fixture-tree.js';
import { startNpmRegistry } from '../support/npm-registry.js';

/**
 * Start one local npm registry on 127.0.0.1 (with CORS) for the Chromium install tests, and hand its
 * URL to them: the fixture tree, and `tampered`, whose tarball is not what its integrity says.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = await startNpmRegistry([...FIXTURE_PACKAGES, { name: 'tampered', version: '1.0.0' }]);
  // Its tarball never matches its integrity: the install tests' mismatch.
  registry.tamper('tampered', '1.0.0');
  project.provide('npmRegistry', { url: registry.url });
  return () => registry.close();
}
