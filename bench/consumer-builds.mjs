/**
 * One browser app, as an npm consumer writes it from the README's browser quick start, built with
 * Vite, webpack and esbuild from the packed package; and how each build's first load is found.
 * Shared by test/package/bundle-split.test.ts (guards, the app run in Chromium) and the `bundles`
 * section of `npm run bench` (the sizes as rows).
 */
import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The app: an OPFS workspace in a worker (a write read back, a glob and a shell pipe, which load
 * on first use), and the in-page `createWorkspace` with its shell. The same source for every bundler.
 */
export const appFiles = {
  'web/main.js': `
import { createMemoryFs, createWorkspace } from 'sandpit-workspace';
import { connectWorkspace } from 'sandpit-workspace/web';

async function main() {
  const ws = await connectWorkspace({ backend: 'opfs', name: 'consumer-' + Date.now() });
  const wrote = await ws.call('write_file', { path: 'src/app.js', content: 'console.log("hi");\\n' });
  const read = await ws.call('read_file', { path: 'src/app.js' });
  const glob = await ws.call('glob', { pattern: '**/*.js' });
  const command = await ws.call('run_command', { command: 'cat src/app.js | wc -l' });
  const script = await ws.call('run_command', { command: 'node -e "console.log(6 * 7)"' });
  await ws.close();
  const page = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'one\\n' }), root: '/ws' });
  const pageRead = await page.call('read_file', { path: 'a.txt' });
  const shell = await page.call('run_command', { command: 'echo in-page' });
  return { wrote, read, glob, command, script, pageRead, shell };
}

const out = document.getElementById('out');
main().then(
  (result) => { out.textContent = JSON.stringify(result); },
  (error) => { out.textContent = 'ERROR ' + (error instanceof Error ? error.stack : String(error)); },
);
`,
  'web/index.html': page('<script type="module" src="./main.js"></script>'),
  // ES-module workers can load chunks on first use; Vite's default (iife) puts everything in one file.
  'web/vite.config.js': `export default { worker: { format: 'es' } };\n`,
};

/**
 * The package's chunks the app's calls load beyond what the package's entry modules import
 * themselves: the review journal its first write keeps (`journal-link`), and RE2 and picomatch
 * (`build`, `posix`), which its .gitignore rules and its glob load. The webpack build of the test
 * minifies what the app can load and no more (`buildWebpack`'s `minifyOnly`), and the test checks
 * that the app, run in Chromium, loaded no file the build left unminified.
 */
export const appLoads = ['journal-link', 'build', 'posix'];

/** The page that loads a build's entry. */
export function page(script) {
  return `<!doctype html>\n<html><body><pre id="out">loading</pre>${script}</body></html>\n`;
}

/** Run a program, failing with its output; vitest's NODE_ENV=test is dropped so builds are production builds. */
export function mustRun(command, args, cwd) {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Write files below `dir`, making folders as needed. */
export async function writeTree(dir, files) {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
  }
}

async function filesBelow(dir, rel = '') {
  const out = [];
  for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesBelow(dir, path)));
    else out.push(path);
  }
  return out;
}

async function readOutput(out) {
  const files = {};
  for (const rel of await filesBelow(out)) files[rel] = await readFile(join(out, rel), 'utf8');
  return files;
}

/** The gzip size of some files of a build, in KiB. */
export function gzipKiB(files, names) {
  return names.reduce((sum, f) => sum + gzipSync(files[f], { level: 9 }).length, 0) / 1024;
}

/** ES-module output: the entries and every file they import statically (what loads before they run). */
function esmClosure(files, entries) {
  const seen = new Set();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file) || files[file] === undefined) continue;
    seen.add(file);
    for (const m of files[file].matchAll(/(?:\bfrom|\bimport)\s*["'](\.{1,2}\/[^"']+\.js)["']/g))
      pending.push(posix.normalize(posix.join(posix.dirname(file), m[1])));
  }
  return [...seen];
}

const only = (names, pattern, what) => {
  const found = names.filter((f) => pattern.test(f));
  if (found.length !== 1) throw new Error(`expected one ${what} (${pattern}), found: ${found.join(', ') || 'none'}`);
  return found[0];
};

/** Vite with `worker.format: 'es'`: chunks keep the package's chunk names under assets/. */
export async function buildVite(app) {
  const web = join(app, 'web');
  const vite = join(app, 'node_modules', 'vite', 'bin', 'vite.js');
  mustRun(process.execPath, [vite, 'build', '--outDir', 'dist-vite', '--emptyOutDir', '--logLevel', 'warn'], web);
  const out = join(web, 'dist-vite');
  const files = await readOutput(out);
  const names = Object.keys(files);
  const worker = only(names, /^assets\/worker-[\w-]+\.js$/, 'worker entry');
  const opfs = only(names, /^assets\/opfs-[\w-]+\.js$/, 'OPFS chunk');
  const main = only(names, /^assets\/index-[\w-]+\.js$/, 'page entry');
  return {
    out,
    files,
    workerFirstLoad: esmClosure(files, [worker, opfs]),
    pageFirstLoad: esmClosure(files, [main]),
    lazy: (name) => names.filter((f) => new RegExp(`^assets/${name}-[\\w-]+\\.js$`).test(f)),
  };
}

/**
 * webpack 5 with nothing but the entry and the output folder: it follows the package's
 * `new Worker(new URL('./worker.js', import.meta.url))` and makes the worker's dynamic imports
 * chunks of its own, named by number; the stats tell which import each chunk serves.
 *
 * `minifyOnly`, a list of the package's chunk names: webpack's own minimizer, with its own
 * defaults, still minifies every chunk the app can load (the page's and the worker's entries, all
 * that the package's entry modules import, which the worker's warm-up fetches whenever a call
 * leaves it a quiet moment, and the chunks of the imports named in the list) and leaves alone the
 * chunks only another import reaches (git's verbs, most shell commands). terser minifies each
 * file on its own, so a file it minifies comes out byte for byte as in a build that minifies
 * everything; `unminified` lists the files it left.
 */
export async function buildWebpack(app, { minifyOnly } = {}) {
  const web = join(app, 'web');
  const out = join(web, 'dist-webpack');
  const build = `const webpack = require('webpack');
const compiler = webpack({ mode: 'production', context: ${JSON.stringify(web)}, entry: './main.js',
  output: { path: ${JSON.stringify(out)}, clean: true }, performance: { hints: false } });
const named = ${minifyOnly ? `new RegExp(${JSON.stringify(`/(${minifyOnly.join('|')})-[\\w-]+\\.js$`)})` : null};
const unminified = [];
if (named) compiler.hooks.thisCompilation.tap('minify-only', (compilation) => {
  const entryModule = /sandpit-workspace\\/dist\\/(web\\/worker|web\\/index|browser\\/index|index)\\.js$/;
  const loadable = (origin) =>
    !origin.request || entryModule.test(origin.module?.resource ?? '') || named.test(origin.request);
  // Before the minimizer's stage: an asset marked minimized is one it leaves as it is.
  compilation.hooks.processAssets.tap({ name: 'minify-only', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE - 1 }, () => {
    for (const chunk of compilation.chunks) {
      if (chunk.canBeInitial() || [...chunk.groupsIterable].some((g) => g.origins.some(loadable))) continue;
      for (const file of chunk.files) if (file.endsWith('.js')) {
        compilation.updateAsset(file, (source) => source, { minimized: true });
        unminified.push(file);
      }
    }
  });
});
compiler.run((error, stats) => {
  if (error || stats.hasErrors()) { console.error(error ?? stats.toString('errors-only')); process.exit(1); }
  process.stdout.write(JSON.stringify({ unminified, stats: stats.toJson({ all: false, chunks: true, chunkOrigins: true, entrypoints: true, ids: true }) }));
  compiler.close(() => {});
});`;
  const { stats, unminified } = JSON.parse(mustRun(process.execPath, ['-e', build], app));
  // A classic script and no charset in the page: decoded as windows-1252, so the package must be ASCII.
  await writeTree(out, { 'index.html': page('<script src="./main.js"></script>') });
  const files = await readOutput(out);
  // A chunk's origins are the imports of every chunk group it belongs to.
  const served = (test) => [...new Set(stats.chunks.filter((c) => c.origins.some(test)).flatMap((c) => c.files))];
  const imported = (pattern) => served((o) => pattern.test(o.request ?? ''));
  // The worker's entry has the client's `new Worker(...)` as its origin, with no import request.
  const worker = served(
    (o) => !o.request && /sandpit-workspace\/dist\/web\/(index|chunks\/client-[\w-]+)\.js$/.test(o.moduleName ?? ''),
  );
  const main = stats.entrypoints.main.chunks.map(String);
  return {
    out,
    files,
    unminified,
    workerFirstLoad: [...new Set([...worker, ...imported(/\/opfs-[\w-]+\.js$/)])],
    pageFirstLoad: stats.chunks.filter((c) => main.includes(String(c.id))).flatMap((c) => c.files),
    lazy: (name) => imported(new RegExp(`/${name}-[\\w-]+\\.js$`)),
  };
}

/**
 * esbuild does not follow `new URL('./worker.js', import.meta.url)`: the worker is a second entry
 * named `worker`, written beside the page's entry, where the client looks for it. Nor does it copy
 * the `node` command's script worker: its chunks go to `chunks/` and the script worker is copied to
 * `assets/`, where the package's chunks look for it (`../assets/`).
 */
export async function buildEsbuild(app) {
  const web = join(app, 'web');
  const out = join(web, 'dist-esbuild');
  const build = `require('esbuild').build({
  entryPoints: { main: './main.js', worker: 'sandpit-workspace/web/worker' },
  bundle: true, splitting: true, format: 'esm', minify: true, outdir: ${JSON.stringify(out)}, logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
}).catch(() => process.exit(1));`;
  mustRun(process.execPath, ['-e', build], web);
  const assets = join(app, 'node_modules', 'sandpit-workspace', 'dist', 'web', 'assets');
  for (const name of await readdir(assets))
    if (/^node-worker-[\w-]+\.js$/.test(name))
      await writeTree(out, { [`assets/${name}`]: await readFile(join(assets, name), 'utf8') });
  await writeTree(out, { 'index.html': page('<script type="module" src="./main.js"></script>') });
  const files = await readOutput(out);
  const names = Object.keys(files);
  const opfs = only(names, /(^|\/)opfs-[\w-]+\.js$/, 'OPFS chunk');
  return {
    out,
    files,
    workerFirstLoad: esmClosure(files, ['worker.js', opfs]),
    pageFirstLoad: esmClosure(files, ['main.js']),
    lazy: (name) => names.filter((f) => new RegExp(`(^|/)${name}-[\\w-]+\\.js$`).test(f)),
  };
}
