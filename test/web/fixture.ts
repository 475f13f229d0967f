import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { servePage, sharedPage, type PageServer } from './page-server.js';

export interface PageFixture {
  browser: Browser;
  server: PageServer;
  outDir: string;
  stop(): Promise<void>;
}

/** Serve the test page (built once for the run) and start Chromium. */
export async function startPage(): Promise<PageFixture> {
  const page = await sharedPage();
  const outDir = page.dir;
  const server = await servePage(outDir);
  const browser = await launchChromium();
  return {
    browser,
    server,
    outDir,
    stop: async () => {
      await browser.close();
      await server.stop();
      await page.release();
    },
  };
}
