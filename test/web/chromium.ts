import { chromium, type Browser } from 'playwright-core';
import { inject } from 'vitest';
import { CHROMIUM_ARGS } from '../../scripts/test-setup.mjs';

/** Headless Chromium as the tests and the benchmark use it (CHROMIUM_PATH overrides the binary). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}

/**
 * Chromium for one test file: the run's shared browser where the run has one
 * (test/web/chromium-global-setup.ts), else a browser of its own. `close()` ends either: a shared
 * one is only disconnected, its contexts closed. Open every page in a context of its own
 * (`browser.newPage()` or `browser.newContext()` do), so files never share storage, as with a
 * browser each.
 */
export async function chromiumForFile(): Promise<Browser> {
  const shared = inject('sharedChromium');
  if (!shared) return launchChromium();
  const answer = await fetch(shared);
  if (!answer.ok) throw new Error(`the run's Chromium did not start:\n${await answer.text()}`);
  return chromium.connect(await answer.text());
}
