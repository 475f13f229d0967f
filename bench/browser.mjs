// The browser section of `npm run bench`: builds test/web/page with the real Vite build, serves
// it on 127.0.0.1 and drives headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with
// playwright-core. Run alone with `node bench/browser.mjs`, or import benchBrowser().
import { createServer } from 'node:http';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { fmtMs, fmtRatio, table } from './measure.mjs';

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const TYPES = { '.html': 'text/html', '.js': 'text/javascript' };

function serve(dir) {
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

/** Round trip, 1,000 files and snapshot timings in Chromium, plus the worker's gzip size. */
export async function benchBrowser({ files = 1000 } = {}) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-web-'));
  let server;
  let browser;
  try {
    await build({ configFile: fileURLToPath(new URL('../test/web/vite.page.config.ts', import.meta.url)), logLevel: 'error', build: { outDir } });
    const assets = await readdir(join(outDir, 'assets'));
    const gz = async (f) => gzipSync(await readFile(join(outDir, 'assets', f)), { level: 9 }).length;
    const workerGz = (await gz(assets.find((f) => /^worker-.*\.js$/.test(f))))
      + (await Promise.all(assets.filter((f) => /^(opfs|stat)-.*\.js$/.test(f)).map(gz))).reduce((a, b) => a + b, 0);
    server = await serve(outDir);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.sandpitBench);
    const r = await page.evaluate((n) => window.sandpitBench({ files: n }), files);
    const f = r.files;
    const rows = [
      ['read_file round trip through the worker (2 KB, median)', fmtMs(r.roundTripMs), 'under 0.3 ms', r.roundTripMs < 0.3 ? 'met' : 'missed'],
      ...['memory', 'opfs', 'indexeddb'].map((b) => [`${files} × write_file, then ${files} × read_file on ${b}`, `${fmtMs(f[b].writeMs)} + ${fmtMs(f[b].readMs)}`, '', '']),
      ['write speed-up, OPFS over IndexedDB', fmtRatio(f.indexeddb.writeMs / f.opfs.writeMs), 'at least 3x', f.indexeddb.writeMs / f.opfs.writeMs >= 3 ? 'met' : 'missed'],
      ...['memory', 'opfs', 'indexeddb'].map((b) => [`snapshot after one edit, ${files} files, on ${b} (first snapshot of all files)`, `${fmtMs(r.snapshot[b].afterEditMs)} (${fmtMs(r.snapshot[b].firstMs)})`, '', '']),
      ...Object.entries(r.raw).map(([k, v]) => [`adapter alone in a worker, ${files} writes + reads: ${k}`, `${fmtMs(v.writeMs)} + ${fmtMs(v.readMs)}`, '', '']),
      ['worker bundle for OPFS, gzip (git included)', `${(workerGz / 1024).toFixed(1)} KiB`, 'under 120 KiB', workerGz < 120 * 1024 ? 'met' : 'missed'],
    ];
    return table('Browser (headless Chromium): the workspace in a Web Worker', ['measure', 'result', 'target', ''], rows);
  } finally {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchBrowser());
}
