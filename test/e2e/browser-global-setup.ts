import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS } from '../../scripts/test-setup.mjs';

/**
 * One Chromium for every e2e file: each file opens its own browser context on it (storage,
 * cookies and OPFS apart, as in a fresh browser) instead of launching a browser of its own, which
 * cost about a second of CPU per file.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  project.provide('e2eBrowser', server.wsEndpoint());
  return () => server.close();
}
