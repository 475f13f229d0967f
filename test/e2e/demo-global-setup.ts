import type { TestProject } from 'vitest/node';
import { demoBuildCommand } from '../bundle/demo-build-command.js';
import { buildAhead } from '../support/build-ahead.js';

/**
 * Begin the demo's build for the run while vitest is still starting: every e2e file waits for it
 * first, and begun by the first file it started only once a worker had loaded Playwright and Vite,
 * five seconds into a run whose start keeps one core busy at most. Files find it through the usual
 * lock and mark (test/bundle/web-build.ts); the run's end stops a build still going.
 */
export default function setup(project: TestProject): () => Promise<void> {
  return buildAhead(project.getProvidedContext().sharedDemoBuild, 'web', demoBuildCommand);
}
