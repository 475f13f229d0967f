import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { opfsWorkerGzip, shellChunkGzip } from '../../bench/worker-size.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Built } from '../support/built-once.js';
import { filesBelow, sharedPage } from './page-server.js';

let page: Built;
let outDir: string;
let files: Record<string, string>;
beforeAll(async () => {
  page = await sharedPage();
  outDir = page.dir;
  files = {};
  for (const rel of await filesBelow(outDir)) files[rel] = await readFile(join(outDir, rel), 'utf8');
});
afterAll(() => page?.release());

/** The worker's own chunk: the one the page starts with `new Worker(...)`. */
const workerEntry = () => Object.keys(files).find((f) => /^assets\/worker-[\w-]+\.js$/.test(f))!;

// The page imports both browser entries (`sandpit` and `sandpit/web`) and starts the worker.
describe('the browser build of sandpit and sandpit/web', () => {
  it('has a worker chunk and lazily loaded backend chunks', () => {
    expect(workerEntry()).toBeDefined();
    for (const backend of ['opfs', 'indexeddb', 'memory'])
      expect(Object.keys(files).some((f) => f.startsWith(`assets/${backend}-`))).toBe(true);
  });

  it('imports no node: module, in the page or the worker', () => {
    const offenders = Object.entries(files)
      .filter(([, text]) => /(?:from\s*|import\s*\(\s*|require\s*\(\s*)["']node:/.test(text))
      .map(([f]) => f);
    expect(offenders).toEqual([]);
  });

  it('contains no WebAssembly', () => {
    expect(Object.keys(files).filter((f) => f.endsWith('.wasm'))).toEqual([]);
    expect(
      Object.entries(files)
        .filter(([, text]) => /WebAssembly\s*\.|\\0asm|\0asm/.test(text))
        .map(([f]) => f),
    ).toEqual([]);
  });

  // The target is 120 KiB (issues 32 and 38). Since the snapshot store reads its own objects and
  // isomorphic-git loads with the first git verb, the first load is 82.3 KiB; the guard leaves a
  // small margin above that, so growth is noticed long before the target is near.
  it('keeps what an OPFS worker loads under 88 KiB gzip, isomorphic-git left to the first git verb', async () => {
    const gzipped = await opfsWorkerGzip(join(outDir, 'assets'));
    console.log(`what an OPFS worker loads: ${(gzipped / 1024).toFixed(1)} KiB gzip`);
    expect(gzipped).toBeGreaterThan(20 * 1024);
    expect(gzipped).toBeLessThan(88 * 1024);
  });

  // The shell loads with the first run_command: its chunk holds the interpreter and the commands
  // agents type most; awk, jq, xargs, read, declare, which, `[[ ]]` and the rarer commands are
  // chunks of their own, loaded on first use. What it adds was 49.4 KiB before they moved out and
  // 34.4 KiB after; the guard leaves a small margin above that.
  it('keeps what the shell adds to that worker under 36 KiB gzip, its rarer commands loaded on first use', async () => {
    const assets = join(outDir, 'assets');
    const gzipped = await shellChunkGzip(assets);
    console.log(`what the shell adds on the first command: ${(gzipped / 1024).toFixed(1)} KiB gzip`);
    expect(gzipped).toBeGreaterThan(10 * 1024);
    expect(gzipped).toBeLessThan(36 * 1024);
    const shell = files[Object.keys(files).find((f) => /^assets\/run-[\w-]+\.js$/.test(f))!]!;
    for (const lazy of ['awk', 'jq', 'xargs', 'read', 'declare', 'which', 'cond'])
      expect(shell, `${lazy} is a chunk of its own`).toMatch(
        new RegExp(`import\\(\\s*["'\`]\\./${lazy}-[\\w-]+\\.js["'\`]`),
      );
  });
});
