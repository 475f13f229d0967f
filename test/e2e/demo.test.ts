import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editingSteps } from './editing-steps.js';
import { startPlayground, type Playground } from './playground.js';
import { storageSteps } from './storage-steps.js';
import { transferSteps } from './transfer-steps.js';

/**
 * The playground end to end: one build, one `vite preview`, one page, driven as a person would.
 * The groups run in order and share the page, each starting where the last one left it.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 120_000);
afterAll(async () => pg?.stop());

describe('the playground served by vite preview', () => {
  describe('editing and review', () => editingSteps(() => pg));
  describe('replay and files in and out', () => transferSteps(() => pg));
  describe('persistent storage', () => storageSteps(() => pg));

  it('lets the browser keep the hashed build files for good, and asks again for the page itself', async () => {
    const scripts = await pg.page.$$eval('script[type="module"][src]', (nodes) =>
      nodes.map((node) => (node as HTMLScriptElement).src),
    );
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(new URL(src).pathname).toMatch(/^\/assets\//);
      expect((await fetch(src)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // index.html and the preview's Service Worker keep their names from build to build.
    expect((await fetch(pg.url)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(new URL('preview-sw.js', pg.url))).headers.get('cache-control')).toBe('no-cache');
  });

  it('sends the files as they are: nothing is compressed anew for each request on 127.0.0.1', async () => {
    const src = await pg.page.$eval('script[type="module"][src]', (node) => (node as HTMLScriptElement).src);
    const answer = await fetch(src, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(answer.headers.get('content-encoding')).toBeNull();
    const body = Buffer.from(await answer.arrayBuffer());
    expect(Number(answer.headers.get('content-length'))).toBe(body.length);
    expect(body.length).toBeGreaterThan(1024);
  });

  it('made no request beyond the local server and logged no errors', () => {
    expect(pg.foreignRequests).toEqual([]);
    expect(pg.pageErrors).toEqual([]);
  });
});
