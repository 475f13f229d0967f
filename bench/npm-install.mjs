// The npm-install section of `npm run bench`: `npm install` of a 100-package tree and of react +
// react-dom through the browser shell, on memory in Node and in a Chromium worker on OPFS
// (Sandpit's installer), against the npm CLI, all on the same local registry on 127.0.0.1, cold
// (empty tarball cache) and from the cache (no node_modules, no lock). Alone:
// `npm run bench -- --only npm-install`.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildTestPage, openChromium, serve } from './chromium-page.mjs';
import { fmtMs, fmtRatio, medianOf, table } from './measure.mjs';
import { startNpmRegistry } from './npm-registry.mjs';

const run = promisify(execFile);

/** 100 packages: ten direct dependencies, each with nine of its own, one name in two majors (nested). */
export function benchTree() {
  const body = `${'// filler line for a realistic file size\n'.repeat(40)}module.exports = 1;\n`;
  const files = { 'lib/a.js': body, 'lib/b.js': body, 'README.md': body };
  const packages = [];
  const root = {};
  for (let i = 0; i < 10; i++) {
    const deps = {};
    for (let j = 0; j < 9; j++) deps[`leaf-${i}-${j}`] = '^1.0.0';
    deps.dup = i % 2 ? '^2.0.0' : '^1.0.0';
    packages.push({ name: `mid-${i}`, version: '1.0.0', dependencies: deps, files });
    for (let j = 0; j < 9; j++) packages.push({ name: `leaf-${i}-${j}`, version: '1.0.0', files });
    root[`mid-${i}`] = '^1.0.0';
  }
  packages.push({ name: 'dup', version: '1.0.0', files }, { name: 'dup', version: '2.0.0', files });
  return { packages, project: { name: 'bench-app', version: '1.0.0', dependencies: root } };
}

/** react and react-dom as this repository has them (scheduler is the one dependency react-dom brings). */
export function reactTree() {
  const folder = (path) => ({ dir: fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url)) });
  return {
    packages: [folder('react'), folder('react-dom'), folder('react-dom/node_modules/scheduler')],
    project: { name: 'react-app', version: '1.0.0', dependencies: { react: '^19.3.1', 'react-dom': '^19.3.1' } },
  };
}

async function timeSandpit(registry, project, cache, dist) {
  const fs = dist.createMemoryFs({ '/package.json': JSON.stringify(project) });
  const ws = dist.createWorkspace({
    fs,
    processRunner: dist.createShellRunner(fs, '/', { packages: { registry: registry.url, cache } }),
  });
  const t = performance.now();
  const r = await ws.call('run_command', { command: 'npm install', timeout_seconds: 600 });
  const ms = performance.now() - t;
  if (!r.ok || r.result.exit_code !== 0) throw new Error(`sandpit npm install failed: ${JSON.stringify(r)}`);
  return ms;
}

async function timeNpm(registry, project, cacheDir) {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-bench-npm-'));
  try {
    await writeFile(join(dir, 'package.json'), JSON.stringify(project));
    const t = performance.now();
    await run(
      'npm',
      [
        'install',
        '--registry',
        registry.url,
        '--cache',
        cacheDir,
        '--userconfig',
        join(dir, '.npmrc-none'),
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
      ],
      { cwd: dir },
    );
    return performance.now() - t;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs in the test page: `npm install` in a fresh worker on OPFS; the worker's first npm loads the installer, as a person's would. */
async function installInWorker(page, { registry, project, name, cold }) {
  return page.evaluate(
    async ({ registry, project, name, cold }) => {
      if (cold) await caches.delete('sandpit-npm-tarballs');
      const ws = await window.sandpit.connectWorkspace({ backend: 'opfs', name, npmRegistry: registry });
      try {
        const written = await ws.call('write_file', { path: 'package.json', content: JSON.stringify(project) });
        if (!written.ok) return { error: JSON.stringify(written.error) };
        const t = performance.now();
        const r = await ws.call('run_command', { command: 'npm install', timeout_seconds: 600 });
        const ms = performance.now() - t;
        if (!r.ok || r.result.exit_code !== 0) return { error: JSON.stringify(r.ok ? r.result : r.error) };
        return { ms };
      } finally {
        await ws.close();
        await (await navigator.storage.getDirectory())
          .removeEntry(`sandpit-${name}`, { recursive: true })
          .catch(() => {});
      }
    },
    { registry, project, name, cold },
  );
}

/** Median ms per kind (cold, warm) of each tree in a Chromium worker on OPFS, after one untimed round. */
async function timeChromium(trees, runs) {
  const outDir = await mkdtemp(join(tmpdir(), 'sandpit-bench-npm-web-'));
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
    const out = {};
    let n = 0;
    for (const [label, { registry, project }] of Object.entries(trees)) {
      const times = { cold: [], warm: [] };
      n++;
      for (let i = 0; i <= runs; i++) {
        for (const kind of ['cold', 'warm']) {
          const name = `bench-npm-${n}-${kind}-${stamp}-${i}`;
          const r = await installInWorker(page, { registry: registry.url, project, name, cold: kind === 'cold' });
          if (r.error) throw new Error(`npm install of ${label} in a Chromium worker on OPFS: ${r.error}`);
          if (i > 0) times[kind].push(r.ms);
        }
      }
      out[label] = { cold: medianOf(times.cold), warm: medianOf(times.warm) };
    }
    return out;
  } finally {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
    await rm(outDir, { recursive: true, force: true });
  }
}

/** Median ms per kind of a tree on memory (Sandpit, in Node) and with the npm CLI. */
async function timeNode(registry, project, dist, cacheRoot, label, runs) {
  const ours = { cold: [], warm: [] };
  const theirs = { cold: [], warm: [] };
  for (let i = 0; i < runs; i++) {
    const cache = dist.memoryTarballCache();
    ours.cold.push(await timeSandpit(registry, project, cache, dist));
    ours.warm.push(await timeSandpit(registry, project, cache, dist));
    const cacheDir = join(cacheRoot, `${label}-${i}`);
    theirs.cold.push(await timeNpm(registry, project, cacheDir));
    theirs.warm.push(await timeNpm(registry, project, cacheDir));
  }
  const pick = (times) => ({ cold: medianOf(times.cold), warm: medianOf(times.warm) });
  return { memory: pick(ours), npm: pick(theirs) };
}

export async function benchNpmInstall({ runs = 3, browser = true } = {}) {
  const { createWorkspace, createShellRunner } = await import('../dist/index.js');
  const { createMemoryFs } = await import('../dist/fs/memory.js');
  const { memoryTarballCache } = await import('../dist/packages/cache.js');
  const dist = { createWorkspace, createShellRunner, createMemoryFs, memoryTarballCache };
  const big = benchTree();
  const react = reactTree();
  const trees = {
    [`a ${big.packages.length - 1}-package tree`]: { ...big, registry: await startNpmRegistry(big.packages) },
    'react + react-dom (3 packages, 8 MB unpacked)': { ...react, registry: await startNpmRegistry(react.packages) },
  };
  const cacheRoot = await mkdtemp(join(tmpdir(), 'sandpit-bench-npm-cache-'));
  try {
    const node = {};
    let i = 0;
    for (const [label, { registry, project }] of Object.entries(trees))
      node[label] = await timeNode(registry, project, dist, cacheRoot, `tree-${i++}`, runs);
    const web = browser ? await timeChromium(trees, runs) : null;
    const rows = [];
    for (const label of Object.keys(trees))
      for (const kind of ['cold', 'warm']) {
        const { memory, npm } = node[label];
        const opfs = web?.[label][kind];
        rows.push([
          `${label}, ${kind === 'cold' ? 'cold (empty cache)' : 'from the tarball cache'}`,
          fmtMs(memory[kind]),
          opfs === undefined ? 'not run' : fmtMs(opfs),
          fmtMs(npm[kind]),
          `${fmtRatio(memory[kind] / npm[kind])} / ${opfs === undefined ? '-' : fmtRatio(opfs / npm[kind])}`,
        ]);
      }
    return table(
      `npm install against the npm CLI (local registry, median of ${runs}; Sandpit: run_command's shell, one change and one snapshot; in Chromium, a fresh worker for each install)`,
      [
        'install',
        'Sandpit (memory, Node)',
        'Sandpit (Chromium worker, OPFS)',
        'npm CLI',
        "of npm's time (memory / OPFS)",
      ],
      rows,
    );
  } finally {
    for (const { registry } of Object.values(trees)) await registry.close();
    await rm(cacheRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await benchNpmInstall());
