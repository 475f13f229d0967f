import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../web/chromium.js';
import { filesBelow, servePage } from '../web/page-server.js';
import {
  appFiles,
  appLoads,
  type Built,
  buildEsbuild,
  buildVite,
  buildWebpack,
  gzipKiB,
} from '../../bench/consumer-builds.mjs';
import { makeConsumer, packSandpit, writeTree } from './stage.js';

// What the README promises an npm consumer: an OPFS worker whose first load stays under 120 KiB.
// Since the snapshot store reads its own objects (isomorphic-git loads with the first git verb)
// it is 81-93 KiB by bundler (esbuild's minifier and its 36 files, each gzipped on its own, cost
// the most); each guard leaves a little room above its figure, not the whole way to 120.
const FIRST_LOAD_LIMIT_KIB = { Vite: 92, webpack: 88, esbuild: 100 };
// The page's first load: connectWorkspace and the in-page createWorkspace on memory (memfs is most
// of it). Since sandpit/web's client is split like the worker (it was one 1.29 MB file with the
// page runner's shell inside) it is 156-170 KiB by bundler, from 275 (webpack) and 364 (esbuild);
// since the client and sandpit's browser build share their chunks, 148-164; since the worker shares
// them too, 138-164 (esbuild's page carries the worker's parts of the files both load at start).
const PAGE_LIMIT_KIB = { Vite: 175, webpack: 170, esbuild: 185 };

let work: string;
let app: string;
let browser: Browser | null = null;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'sandpit-split-'));
  app = await makeConsumer(work, (await packSandpit(work)).tarball);
  await writeTree(app, appFiles);
  // Building and packing the package is minutes of work on a shared machine.
});
afterAll(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

/** What no browser build may hold: a node: import, WebAssembly. */
function expectBrowserClean(files: Record<string, string>): void {
  const names = Object.keys(files);
  expect(names.filter((f) => /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:/.test(files[f]!))).toEqual([]);
  expect(names.filter((f) => f.endsWith('.wasm') || /WebAssembly\.(instantiate|compile)/.test(files[f]!))).toEqual([]);
}

/** Serve a build on 127.0.0.1, run it in Chromium and return what the page printed and which files it asked for. */
async function runInChromium(out: string): Promise<{
  printed: Record<string, { ok: boolean; result: Record<string, unknown> }>;
  requested: string[];
}> {
  const server = await servePage(out);
  browser ??= await launchChromium();
  const tab = await browser.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (e) => errors.push(e.message));
  tab.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  try {
    await tab.goto(server.url);
    await tab.waitForFunction(() => document.getElementById('out')?.textContent !== 'loading', null, {
      timeout: 60_000,
    });
    const text = (await tab.textContent('#out'))!;
    expect(text.startsWith('ERROR'), `${text}\n${errors.join('\n')}`).toBe(false);
    return { printed: JSON.parse(text), requested: server.requested };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\npage errors:\n${errors.join('\n')}`);
  } finally {
    await tab.close();
    await server.stop();
  }
}

/**
 * A build holds no node: import or WebAssembly; its OPFS worker loads under the guard first, the
 * shell, the pack writer and git's network verbs on first use; the page's entry loads under its
 * guard and leaves the shell to first use too; and the app runs in Chromium: what it wrote through
 * the worker it reads back, and a `node` script in the script worker.
 */
async function expectSmallAndWorking(bundler: keyof typeof FIRST_LOAD_LIMIT_KIB, built: Built): Promise<void> {
  const { files, workerFirstLoad, pageFirstLoad } = built;
  expectBrowserClean(files);
  const kib = gzipKiB(files, workerFirstLoad);
  const pageKib = gzipKiB(files, pageFirstLoad);
  console.log(
    `consumer ${bundler}: OPFS worker first load ${kib.toFixed(1)} KiB gzip (${workerFirstLoad.length} files), page entry ${pageKib.toFixed(1)} KiB gzip`,
  );
  expect(kib).toBeGreaterThan(20);
  expect(kib).toBeLessThan(FIRST_LOAD_LIMIT_KIB[bundler]);
  expect(pageKib).toBeGreaterThan(20);
  expect(pageKib).toBeLessThan(PAGE_LIMIT_KIB[bundler]);
  for (const name of ['run', 'pack', 'clone'] as const) {
    const chunks = built.lazy(name);
    expect(chunks.length, `${name} is a chunk of its own`).toBeGreaterThan(0);
    for (const chunk of chunks) expect(workerFirstLoad, name).not.toContain(chunk);
  }
  for (const chunk of built.lazy('run')) expect(pageFirstLoad, 'the page entry').not.toContain(chunk);
  const unminified = built.unminified ?? [];
  // The sizes above are of what the bundler's minifier made, as in a build that minifies everything.
  expect([...workerFirstLoad, ...pageFirstLoad].filter((f) => unminified.includes(f))).toEqual([]);

  const { printed: r, requested } = await runInChromium(built.out);
  // What ran in Chromium is what the minifier made of it: the app loaded no file the build left.
  expect(
    [...new Set(requested.filter((f) => unminified.includes(f)))],
    'loaded but left unminified: name its import in appLoads (bench/consumer-builds.mjs)',
  ).toEqual([]);
  expect(r.wrote).toMatchObject({ ok: true });
  expect(r.read).toMatchObject({ ok: true, result: { content: 'console.log("hi");\n' } });
  expect(r.glob).toMatchObject({ ok: true, result: { matches: ['src/app.js'] } });
  expect(r.command).toMatchObject({ ok: true, result: { exit_code: 0 } });
  expect(String(r.command!.result.stdout).trim()).toBe('1');
  // the `node` command's script worker, which esbuild is told to copy (see buildEsbuild)
  expect(r.script, JSON.stringify(r.script)).toMatchObject({ ok: true, result: { exit_code: 0, stdout: '42\n' } });
  expect(r.pageRead).toMatchObject({ ok: true, result: { content: 'one\n' } });
  expect(r.shell).toMatchObject({ ok: true, result: { stdout: 'in-page\n' } });
}

describe('the package ships its browser entries split, for any bundler', () => {
  it('ships its browser bundles as ASCII, so a page in any encoding parses them', async () => {
    const dist = join(app, 'node_modules', 'sandpit-workspace', 'dist');
    const offenders: string[] = [];
    for (const dir of ['web', 'browser'])
      for (const rel of await filesBelow(join(dist, dir)))
        if (rel.endsWith('.js') && /[^\0-\x7f]/.test(await readFile(join(dist, dir, rel), 'utf8')))
          offenders.push(`${dir}/${rel}`);
    expect(offenders).toEqual([]);
  });

  it('Vite with worker.format "es": the OPFS worker loads under 92 KiB gzip first (the page under 175), the shell and git on first use; the app runs in Chromium', async () => {
    await expectSmallAndWorking('Vite', await buildVite(app));
  });

  it('webpack 5 configured with nothing but its entry and output folder: the same, under 88 KiB (page under 170)', async () => {
    // Minified, as webpack's defaults do, is every chunk the app can load (`minifyOnly`): the
    // chunks only git's verbs and the shell's other commands reach are left, since no assertion
    // reads them and the app never loads them: with all 104 files minified the build took 37 to 39 CPU-s.
    const built = await buildWebpack(app, { minifyOnly: appLoads });
    expect(built.unminified!.length).toBeGreaterThan(0);
    await expectSmallAndWorking('webpack', built);
    // terser over the page and the worker's chunks: 8 minutes once under load 16
  });

  it('esbuild with the worker as a second entry named worker, its script worker copied: the same, under 100 KiB (page under 185)', async () => {
    await expectSmallAndWorking('esbuild', await buildEsbuild(app));
  });
});
