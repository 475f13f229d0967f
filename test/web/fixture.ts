import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.js';
import { buildPage, servePage, type PageServer } from './page-server.js';

export interface PageFixture {
  browser: Browser;
  server: PageServer;
  outDir: string;
  stop(): Promise<void>;
}

/** Build the test page into a folder of its own, serve it, and start Chromium. */
export async function startPage(label: string): Promise<PageFixture> {
  const outDir = await mkdtemp(join(tmpdir(), `sandpit-web-${label}-`));
  await buildPage(outDir);
  const server = await servePage(outDir);
  const browser = await launchChromium();
  return {
    browser,
    server,
    outDir,
    stop: async () => {
      await browser.close();
      await server.stop();
      await rm(outDir, { recursive: true, force: true });
    },
  };
}
