import { createServer } from 'node:http';
import type { BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_ARGS } from '../../scripts/test-setup.mjs';

/**
 * One Chromium for the node project's files that drive a page (the package's consumer apps, the
 * README's browser quick start, the web page tests), launched when the first of them asks and closed
 * when the run ends. Each file opens contexts of its own on it (storage apart, as in a fresh browser;
 * test/web/chromium.ts) instead of launching a browser. The run's own process holds it, not a test
 * worker, so no worker's end takes it from a file in another worker still using it; a run with no
 * such file launches nothing.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let launched: Promise<BrowserServer> | undefined;
  const launch = async (): Promise<BrowserServer> => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launchServer({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    // A browser that went away (a crash) is launched again for the next file that asks.
    browser.on('close', () => {
      launched = undefined;
    });
    return browser;
  };
  const server = createServer((_req, res) => {
    launched ??= launch();
    launched.then(
      (browser) => res.end(browser.wsEndpoint()),
      (error: unknown) => {
        launched = undefined;
        res.writeHead(500).end(error instanceof Error ? (error.stack ?? error.message) : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  project.provide('sharedChromium', `http://127.0.0.1:${port}/`);
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    const browser = await launched?.catch(() => undefined);
    await browser?.close();
  };
}
