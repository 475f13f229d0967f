// The browser contenders of the git benchmark: `connectWorkspace({ backend }).git.clone({ url })`
// in headless Chromium, on the built test page (test/web/page). The page is served on one port and
// the git server listens on another, so every clone is a cross-origin fetch from the worker, as it
// would be against a real host. The browser stays open for the whole benchmark, so it idles beside
// every contender's clone alike, and each clone here takes its turn with the others.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestPage, openChromium, serve } from './chromium-page.mjs';

export const BROWSER_BACKENDS = ['memory', 'opfs', 'indexeddb'];

/** One timed clone in the page: connect (a fresh worker and storage name) + clone, the worker closed. */
async function cloneOnce(page, backend, url, name) {
  return page.evaluate(
    async ({ backend, url, name }) => {
      const t = performance.now();
      const ws = await window.sandpit.connectWorkspace({ backend, name });
      const envelope = await ws.git.clone({ url });
      const ms = performance.now() - t;
      await ws.close();
      return envelope.ok ? { ms, files: envelope.result.files } : { ms, error: envelope.error };
    },
    { backend, url, name },
  );
}

/** A clone's storage removed, so a run never fills the origin's quota or reads an earlier run's files. */
async function removeStorage(page, backend, name) {
  await page.evaluate(
    async ({ backend, name }) => {
      if (backend === 'opfs')
        await (await navigator.storage.getDirectory())
          .removeEntry(`sandpit-${name}`, { recursive: true })
          .catch(() => {});
      if (backend === 'indexeddb')
        await new Promise((done) => {
          const r = indexedDB.deleteDatabase(`sandpit-${name}`);
          r.onsuccess = r.onerror = r.onblocked = done;
        });
    },
    { backend, name },
  );
}

/**
 * Open the page in Chromium; `clone(backend, lap)` then clones `url` once and resolves to its
 * time in ms, the page's own figure; `lap.start()` and `lap.stop(ms)`, if given, are called around
 * the page's call, the storage's removal after it untimed. It throws when a clone fails or brings a
 * different number of files than `expectFiles`, so a broken clone never looks fast. `close()` ends the browser and the page's server.
 */
export async function openBrowserCloner(url, { expectFiles } = {}) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-git-web-'));
  let server;
  let browser;
  const close = async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  };
  try {
    await buildTestPage(outDir);
    server = await serve(outDir);
    browser = await openChromium();
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => window.sandpit);
    const stamp = Date.now().toString(36);
    let n = 0;
    const clone = async (backend, lap) => {
      const name = `bench-git-${backend}-${stamp}-${++n}`;
      lap?.start();
      const r = await cloneOnce(page, backend, url, name);
      lap?.stop(r.ms);
      await removeStorage(page, backend, name);
      if (r.error) throw new Error(`clone on ${backend}: ${r.error.code}: ${r.error.message}`);
      if (expectFiles !== undefined && r.files !== expectFiles)
        throw new Error(`clone on ${backend} brought ${r.files} files, not ${expectFiles}`);
      return r.ms;
    };
    return { clone, close };
  } catch (error) {
    await close();
    throw error;
  }
}
