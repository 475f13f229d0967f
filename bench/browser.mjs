// The browser section of `npm run bench`: builds test/web/page with the real Vite build, serves
// it on 127.0.0.1 and drives headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium) with
// playwright-core. Run alone with `node bench/browser.mjs`, or import benchBrowser().
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildTestPage, openChromium, serve, within } from './chromium-page.mjs';
import { fmtMs, fmtRatio, table } from './measure.mjs';
import { opfsWorkerGzip } from './worker-size.mjs';

/** The longest the page's benchmarks may take: minutes on a loaded machine, never an hour. */
const PAGE_BENCH_SECONDS = 900;

/** Run the page's benchmarks in a fresh Chromium: a profile on disk, or a private window. */
async function inChromium(url, options, privateWindow) {
  const where = privateWindow ? 'a private window' : 'a profile on disk';
  const browser = await openChromium({ privateWindow });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.sandpitBench);
    return await within(
      PAGE_BENCH_SECONDS,
      `the test page's benchmarks in ${where}`,
      page.evaluate((o) => window.sandpitBench(o), options),
    );
  } finally {
    await browser.close();
  }
}

/**
 * Round trip, 1,000 files and snapshot timings in Chromium with a profile on disk (a user's
 * browser), the 1,000-file rows again in a private window, and the worker's gzip size.
 */
export async function benchBrowser({ files = 1000, log = () => {} } = {}) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-web-'));
  let server;
  try {
    log('browser: building the test page');
    await buildTestPage(outDir);
    const workerGz = await opfsWorkerGzip(join(outDir, 'assets'));
    server = await serve(outDir);
    const url = `http://127.0.0.1:${server.address().port}/`;
    log(`browser: the worker's rows in Chromium with a profile on disk (${files} files per backend)`);
    const r = await inChromium(url, { files }, false);
    log('browser: the file rows again in a private window');
    const p = await inChromium(url, { files, filesOnly: true }, true);
    const f = r.files;
    const speedUp = (x) => x.indexeddb.writeMs / x.opfs.writeMs;
    const rows = [
      [
        'read_file round trip through the worker (2 KB, median)',
        fmtMs(r.roundTripMs),
        'under 0.3 ms',
        r.roundTripMs < 0.3 ? 'met' : 'missed',
      ],
      ...['memory', 'opfs', 'indexeddb'].map((b) => [
        `${files} × write_file, then ${files} × read_file on ${b}`,
        `${fmtMs(f[b].writeMs)} + ${fmtMs(f[b].readMs)}`,
        '',
        '',
      ]),
      ['write speed-up, OPFS over IndexedDB', fmtRatio(speedUp(f)), 'at least 3x', speedUp(f) >= 3 ? 'met' : 'missed'],
      ...['opfs', 'indexeddb'].map((b) => [
        `the same in a private window (storage in the browser's memory), ${b}`,
        `${fmtMs(p.files[b].writeMs)} + ${fmtMs(p.files[b].readMs)}`,
        '',
        '',
      ]),
      ['write speed-up in a private window, OPFS over IndexedDB', fmtRatio(speedUp(p.files)), '', ''],
      ...['memory', 'opfs', 'indexeddb'].map((b) => [
        `snapshot after one edit, ${files} files, on ${b} (first snapshot of all files)`,
        `${fmtMs(r.snapshot[b].afterEditMs)} (${fmtMs(r.snapshot[b].firstMs)})`,
        '',
        '',
      ]),
      ...Object.entries(r.raw).map(([k, v]) => [
        `adapter alone in a worker, ${files} writes + reads: ${k}`,
        `${fmtMs(v.writeMs)} + ${fmtMs(v.readMs)}`,
        '',
        '',
      ]),
      [
        'what an OPFS worker loads, gzip: entry + OPFS chunk (tools, snapshots and isomorphic-git included; memfs, lightning-fs not)',
        `${(workerGz / 1024).toFixed(1)} KiB`,
        'under 120 KiB',
        workerGz < 120 * 1024 ? 'met' : 'missed',
      ],
    ];
    const workerTable = table(
      'Browser (headless Chromium, a profile on disk unless a row says otherwise): the workspace in a Web Worker',
      ['measure', 'result', 'target', ''],
      rows,
    );
    return `${workerTable}\n\n${await (await import('./preview.mjs')).benchPreview({ log })}`;
  } finally {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await benchBrowser());
}
