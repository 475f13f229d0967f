// `npm run bench`: every section measured in one run, printed as Markdown tables with ratios.
// `--quick` uses the smaller snapshot sizes; `--only NAME[,NAME]` runs some sections.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex === -1 ? null : new Set(args[onlyIndex + 1]?.split(','));
const log = (m) => console.error(`# ${m}`);

if (!existsSync(new URL('../dist/index.js', import.meta.url))) {
  log('building dist/ first');
  execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
}

const sections = [
  ['core', async () => (await import('./core.mjs')).benchCore()],
  ['search', async () => (await import('./search.mjs')).benchSearch({ log })],
  ['patch', async () => (await import('./patch.mjs')).benchPatch({ log })],
  ['blame', async () => (await import('./blame.mjs')).benchBlame()],
  ['native', async () => (await import('./native.mjs')).benchNative()],
  ['adapters', async () => (await import('./adapters.mjs')).benchAdapters()],
  ['snapshots', async () => (await import('./snapshots.mjs')).benchSnapshots({ quick })],
  ['first-snapshot', async () => (await import('./first-snapshot.mjs')).benchFirstSnapshot()],
  ['mcp', async () => (await import('./mcp.mjs')).benchMcp({ log })],
  ['sandbox', async () => (await import('./sandbox.mjs')).benchSandbox()],
  ['browser', async () => (await import('./browser.mjs')).benchBrowser({ log })],
  ['bundles', async () => (await import('./bundles.mjs')).benchBundles({ log })],
  ['git', async () => (await import('./git.mjs')).benchGit()],
  ['shell', async () => (await import('./shell.mjs')).benchShell()],
  ['shell-corpus', async () => (await import('./shell-corpus.mjs')).benchShellCorpus()],
  ['git-shell', async () => (await import('./git-shell.mjs')).benchGitShell()],
  ['fork', async () => (await import('./fork.mjs')).benchFork({ quick })],
  ['npm-install', async () => (await import('./npm-install.mjs')).benchNpmInstall()],
];

console.log(
  `## Sandpit benchmarks (${new Date().toISOString().slice(0, 10)}, Node ${process.versions.node}, ${(await import('node:os')).cpus().length} cores)\n`,
);
let failed = 0;
for (const [name, run] of sections) {
  if (only && !only.has(name)) continue;
  log(`section ${name}`);
  try {
    console.log(`${await run()}\n`);
  } catch (error) {
    failed++;
    console.log(`### ${name}\n\nfailed: ${error?.message ?? error}\n`);
  }
}
process.exitCode = failed ? 1 : 0;
