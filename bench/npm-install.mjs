// The npm-install section of `npm run bench`: `npm install` of a 100-package tree through the
// browser shell on memory (Sandpit's installer) against the npm CLI, both on the same local
// registry on 127.0.0.1, cold (empty tarball cache) and from the cache (no node_modules, no lock).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fmtMs, fmtRatio, table } from './measure.mjs';
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

const medianOf = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

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

export async function benchNpmInstall({ runs = 3 } = {}) {
  const { createWorkspace, createShellRunner } = await import('../dist/index.js');
  const { createMemoryFs } = await import('../dist/fs/memory.js');
  const { memoryTarballCache } = await import('../dist/packages/cache.js');
  const dist = { createWorkspace, createShellRunner, createMemoryFs };
  const { packages, project } = benchTree();
  const registry = await startNpmRegistry(packages);
  const cacheRoot = await mkdtemp(join(tmpdir(), 'sandpit-bench-npm-cache-'));
  try {
    const ours = { cold: [], warm: [] };
    const theirs = { cold: [], warm: [] };
    for (let i = 0; i < runs; i++) {
      const cache = memoryTarballCache();
      ours.cold.push(await timeSandpit(registry, project, cache, dist));
      ours.warm.push(await timeSandpit(registry, project, cache, dist));
      const cacheDir = join(cacheRoot, `run-${i}`);
      theirs.cold.push(await timeNpm(registry, project, cacheDir));
      theirs.warm.push(await timeNpm(registry, project, cacheDir));
    }
    const rows = ['cold', 'warm'].map((kind) => {
      const a = medianOf(ours[kind]);
      const b = medianOf(theirs[kind]);
      return [
        kind === 'cold' ? 'cold (empty cache)' : 'from the tarball cache',
        fmtMs(a),
        fmtMs(b),
        `${fmtRatio(a / b)} of npm's time`,
      ];
    });
    return table(
      `npm install of a ${packages.length - 1}-package tree (local registry, median of ${runs}; Sandpit: run_command's shell on memory, one change and one snapshot)`,
      ['install', 'Sandpit (memory)', 'npm CLI', 'ratio'],
      rows,
    );
  } finally {
    await registry.close();
    await rm(cacheRoot, { recursive: true, force: true });
  }
}
