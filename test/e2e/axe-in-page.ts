import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core put in a page once, by the test, for scans that reuse it. Given its script, the builder
 * (`@axe-core/playwright`) compiles all 650 KB of it in the page's own frame twice per scan and once
 * more in every other frame, scanned or not; a scan given `AXE_IN_PAGE` as its source only checks
 * that axe-core is there (a frame without it is skipped, as a frame the script failed in was).
 */
export const AXE_IN_PAGE = "if (typeof window.axe?.run !== 'function') throw new Error('axe-core is not in the page');";

/** Put the axe-core the builder itself imports into the page's own frame (the builder keeps its `source` private). */
export async function putAxeInPage(page: Page): Promise<void> {
  const builder = createRequire(import.meta.url).resolve('@axe-core/playwright');
  await page.evaluate((createRequire(builder)('axe-core') as { source: string }).source);
}
