import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));
const lock = fileURLToPath(new URL('../../node_modules/.cache/sandpit-cli-build.lock', import.meta.url));
const stamp = fileURLToPath(new URL('../../node_modules/.cache/sandpit-build-stamp', import.meta.url));
/** What `npm run build` reads: a change to any of them makes dist/ stale. */
const BUILD_INPUTS = [
  'src',
  'web',
  'scripts',
  'test/patch/scenarios',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'vite.web.config.ts',
];

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, name)));
  return newest;
}

/**
 * True when the last complete build (`scripts/build-finish.mjs` stamps it) is newer than every input.
 * The build stamps only after `tsc -p tsconfig.build.json` exits 0 (its steps are joined by `&&`), so
 * it also means src type-checks, with tsconfig.json's options, as it is now.
 */
export function distIsCurrent(): boolean {
  const built = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (!built || !statSync(cliPath, { throwIfNoEntry: false })) return false;
  return BUILD_INPUTS.every((input) => newestMtime(join(repoRoot, input)) < built);
}

/**
 * Run `npm run build` so the tests exercise the compiled CLI. Test files run in parallel
 * workers, and two tsc runs writing the same files could let a child read a half-written
 * module, so builds take turns through a lock folder.
 */
export async function buildDist(): Promise<void> {
  mkdirSync(fileURLToPath(new URL('../../node_modules/.cache/', import.meta.url)), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock left by a killed run must not block forever.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000) rmdirSync(lock);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  try {
    // `npm ci` builds through `prepare`, and a developer rerunning one file has often just built:
    // the build is a minute of two cores, so it runs only when a source is newer than the last one.
    if (distIsCurrent()) return;
    const started = Date.now();
    // From empty: a module removed from src/ must not linger in dist/, where the package tests
    // pack it from.
    rmSync(fileURLToPath(new URL('../../dist/', import.meta.url)), { recursive: true, force: true });
    const build = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, encoding: 'utf8' });
    // tsc emits even when some other file has a type error; the typecheck is its own step, and
    // what these tests need is a CLI compiled from the current sources, just now.
    const emitted = statSync(cliPath, { throwIfNoEntry: false });
    if (!emitted || emitted.mtimeMs < started - 1000) {
      throw new Error(`npm run build did not emit the CLI (exit ${build.status}):\n${build.stdout}\n${build.stderr}`);
    }
  } finally {
    rmdirSync(lock);
  }
}
