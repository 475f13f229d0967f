// The `bundles` section of `npm run bench`: the README's browser app built from the packed package
// in a fresh project with Vite, webpack and esbuild (bench/consumer-builds.mjs, the builds the
// bundle-split test checks and runs), and what each loads first, gzip level 9 per file. Needs
// `npm run build` first; npm installs the tarball's dependencies from its cache where it can.
// Run alone with `node bench/bundles.mjs`, or import benchBundles().
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { appFiles, buildEsbuild, buildVite, buildWebpack, gzipKiB, mustRun, writeTree } from './consumer-builds.mjs';
import { table } from './measure.mjs';

const repo = fileURLToPath(new URL('..', import.meta.url));
/** The bundlers come from this checkout, not from a download. */
const BORROWED = ['vite', 'webpack', 'esbuild'];

/** A fresh project with the packed package installed, the bundlers linked, and the app written. */
async function consumerApp(work) {
  const out = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], repo);
  const tarball = join(work, JSON.parse(out)[0].filename);
  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
  for (const name of BORROWED) await symlink(join(repo, 'node_modules', name), join(app, 'node_modules', name), 'dir');
  await writeTree(app, appFiles);
  return app;
}

const kib = (files, names) =>
  `${gzipKiB(files, names).toFixed(1)} KiB (${names.length} file${names.length === 1 ? '' : 's'})`;

export async function benchBundles({ log = () => {} } = {}) {
  const work = await mkdtemp(join(tmpdir(), 'sandpit-bench-bundles-'));
  try {
    log('packing and installing the package in a fresh project');
    const app = await consumerApp(work);
    const rows = [];
    for (const [name, build] of [
      ['Vite 8, `worker.format: "es"`', buildVite],
      ['webpack 5, entry and output only', buildWebpack],
      ['esbuild, the worker as a second entry', buildEsbuild],
    ]) {
      log(`building with ${name}`);
      const { files, workerFirstLoad, pageFirstLoad } = await build(app);
      rows.push([name, kib(files, workerFirstLoad), kib(files, pageFirstLoad)]);
    }
    return `${table(
      "A consumer's browser app built from the packed package (minified, gzip level 9 per file)",
      ['bundler', 'OPFS worker, first load', 'page entry (connectWorkspace, in-page createWorkspace), first load'],
      rows,
    )}\n\nThe worker's first load is its entry and the OPFS adapter it loads as the workspace opens, with what they import; the page's is its script and what that imports before it runs. The shell, git and the pack writer load on first use in every build.`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(await benchBundles({ log: (m) => console.error(`# ${m}`) }));
