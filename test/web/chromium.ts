import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../scripts/test-setup.mjs';

/** Headless Chromium as the tests and the benchmark use it (CHROMIUM_PATH overrides the binary). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    headless: true,
  });
}
