// The browser rows of the git benchmark: `connectWorkspace({ backend }).git.clone({ url })` in
// headless Chromium, on the built test page (test/web/page), for each backend. The page is served
// on one port and the git server listens on another, so every clone is a cross-origin fetch from
// the worker, as it would be against a real host.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestPage, openChromium, serve } from './chromium-page.mjs';

export const BROWSER_BACKENDS = ['memory', 'opfs', 'indexeddb'];

/** One timed clone in the page: connect (a fresh worker and storage name) + clone; storage removed after. */
async function cloneOnce(page, backend, url, name) {
  return page.evaluate(
    async ({ backend, url, name }) => {
      const t = performance.now();
      const ws = await window.sandpit.connectWorkspace({ backend, name });
      const envelope = await ws.git.clone({ url });
      const ms = performance.now() - t;
      await ws.close();
      // Removed so a run never fills the origin's quota or reads an earlier run's files.
      if (backend === 'opfs')
        await (await navigator.storage.getDirectory())
          .removeEntry(`sandpit-${name}`, { recursive: true })
          .catch(() => {});
      if (backend === 'indexeddb')
        await new Promise((done) => {
          const r = indexedDB.deleteDatabase(`sandpit-${name}`);
          r.onsuccess = r.onerror = r.onblocked = done;
        });
      return envelope.ok ? { ms, files: envelope.result.files } : { ms, error: envelope.error };
    },
    { backend, url, name },
  );
}

/**
 * Median clone time per backend in ms, after one warm-up clone each. Throws when a clone fails or
 * brings a different number of files than `expectFiles`, so a broken clone never looks fast.
 */
export async function benchGitBrowser(url, { runs = 3, expectFiles } = {}) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-git-web-'));
  let server;
  let browser;
  try {
    await buildTestPage(outDir);
    server = await serve(outDir);
    browser = await openChromium();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.sandpit);
    const stamp = Date.now().toString(36);
    const medians = {};
    for (const backend of BROWSER_BACKENDS) {
      const times = [];
      for (let i = 0; i <= runs; i++) {
        const r = await cloneOnce(page, backend, url, `bench-git-${backend}-${stamp}-${i}`);
        if (r.error) throw new Error(`clone on ${backend}: ${r.error.code}: ${r.error.message}`);
        if (expectFiles !== undefined && r.files !== expectFiles)
          throw new Error(`clone on ${backend} brought ${r.files} files, not ${expectFiles}`);
        if (i > 0) times.push(r.ms);
      }
      times.sort((a, b) => a - b);
      medians[backend] = times[Math.floor(times.length / 2)];
    }
    return medians;
  } finally {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}
