// What the browser benchmarks share: the Vite build of test/web/page (it puts the browser entry on
// `window.sandpit`), a static server for it on 127.0.0.1, and headless Chromium through
// playwright-core (CHROMIUM_PATH, default /usr/bin/chromium).
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { build } from 'vite';

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript' };

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
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Build test/web/page into outDir with the real Vite build. */
export async function buildTestPage(outDir) {
  await build({ configFile: fileURLToPath(new URL('../test/web/vite.page.config.ts', import.meta.url)), logLevel: 'error', build: { outDir } });
}

export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}
