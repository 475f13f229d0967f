// What the browser benchmarks share: the Vite build of test/web/page (it puts the browser entry on
// `window.sandpit`), a static server for it on 127.0.0.1, and headless Chromium through
// playwright-core (CHROMIUM_PATH, default /usr/bin/chromium).
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_ARGS } from '../scripts/test-setup.mjs';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript' };

/**
 * `promise`, or an error naming `what` once `seconds` have passed: a page that never answers (a
 * backend that blocks, a preview that never loads) fails the section with that step's name instead
 * of holding the run with nothing printed. The caller closes the browser, which ends the page's work.
 */
export function within(seconds, what, promise) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${seconds} s`)), seconds * 1000);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Serve a built folder on 127.0.0.1 (a random port); resolves to the node:http server. */
export function serve(dir) {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/\.\.+/g, '');
    try {
      const body = await readFile(join(dir, path === '/' ? 'index.html' : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path) || '.html'] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** Build test/web/page into outDir with the real Vite build. */
export async function buildTestPage(outDir) {
  await build({
    configFile: fileURLToPath(new URL('../test/web/vite.page.config.ts', import.meta.url)),
    logLevel: 'error',
    build: { outDir },
  });
}

/**
 * Headless Chromium with a profile on disk, as a user's browser has (the default), or a private
 * window (`privateWindow`), where OPFS and IndexedDB live in the browser process's memory and each
 * sync-handle call is a round trip to it. Resolves to { newPage, close }.
 */
export async function openChromium({ privateWindow = false } = {}) {
  // Playwright's own limit on a launch is three minutes; a Chromium that has not started in one will not.
  const options = {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    timeout: 60_000,
  };
  if (privateWindow) {
    const browser = await chromium.launch(options);
    return { newPage: () => browser.newPage(), close: () => browser.close() };
  }
  const profile = await mkdtemp(join(tmpdir(), 'sandpit-bench-profile-'));
  const context = await chromium.launchPersistentContext(profile, options);
  return {
    newPage: () => context.newPage(),
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
