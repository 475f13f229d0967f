import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rmdir, symlink, writeFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { copyFileSync, existsSync, rmSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Tools the consumer projects borrow from this checkout instead of downloading them again. */
const BORROWED = [
  'typescript',
  'vite',
  'webpack',
  'esbuild',
  'vitest',
  '@types/node',
  'expect',
  'jest',
  '@jest/globals',
];

/** The README's install line for a Node project (test/docs/quick-starts.test.ts runs it as the README has it). */
const README_NODE_INSTALL = 'npm init -y && npm install sandpit-workspace';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a command; vitest's NODE_ENV=test is dropped so builds are production builds. */
export function run(command: string, args: string[], cwd: string): Run {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

export function mustRun(command: string, args: string[], cwd: string): string {
  const r = run(command, args, cwd);
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

export interface Packed {
  tarball: string;
  files: string[];
}

/**
 * The package as `npm pack` makes it from the `dist/` this run's global setup built, packed once
 * per run and shared by every file that installs it (each used to build its own copy: minutes of
 * two cores). Outside a full run (no shared folder), packed into `work`.
 */
export async function packSandpit(work: string): Promise<Packed> {
  return oncePerRun('package', work, (folder) => pack(folder));
}

/**
 * `make` run once per run for all the files that ask, its answer (plain JSON) shared through the
 * run's folder; outside a full run (no shared folder), run into `work`. The answer is announced by a
 * rename: a file waiting on it must never read it half-written.
 */
async function oncePerRun<T>(what: string, work: string, make: (folder: string) => T | Promise<T>): Promise<T> {
  const shared = inject('sharedDemoBuild');
  if (!shared) {
    const folder = join(work, what);
    await mkdir(folder, { recursive: true });
    return make(folder);
  }
  const folder = join(shared, what);
  const answer = join(shared, `${what}.json`);
  const lock = join(shared, `${what}.lock`);
  while (!existsSync(answer)) {
    try {
      await mkdir(lock);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!existsSync(answer)) {
        await mkdir(folder, { recursive: true });
        await writeFile(`${answer}.tmp`, JSON.stringify(await make(folder)));
        await rename(`${answer}.tmp`, answer);
      }
    } finally {
      await rmdir(lock);
    }
  }
  return JSON.parse(await readFile(answer, 'utf8')) as T;
}

function pack(destination: string): Packed {
  if (!existsSync(join(repoRoot, 'dist', 'index.js'))) mustRun('npm', ['run', 'build'], repoRoot);
  const out = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], repoRoot);
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(destination, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

/**
 * An install line from the docs as this run runs it: `sandpit-workspace` is the packed tarball and
 * `vite` this checkout's (linked by the caller), npm told to use its cache and to stay quiet.
 */
export function localInstall(line: string, tarball: string): string {
  return line.replace(/npm install ([^&|;]+)/g, (_all, names: string) => {
    const swapped = names
      .trim()
      .split(/\s+/)
      .map((n) => (n === 'sandpit-workspace' ? tarball : n === 'vite' ? '' : n))
      .filter(Boolean);
    return `npm install --prefer-offline --no-audit --no-fund ${swapped.join(' ')}`;
  });
}

/**
 * The folder a shell line (an install, as `localInstall` writes it) leaves behind, run once per run
 * in a fresh folder whichever file asks first: the README's quick starts and every consumer
 * project install the package with the same line, which was two installs of the same tarball a run.
 * Callers copy it (`copyInstall`) or run what it installed, and never change it.
 */
export function installedOncePerRun(work: string, line: string): Promise<string> {
  const what = `install-${createHash('sha256').update(line).digest('hex').slice(0, 16)}`;
  return oncePerRun(what, work, (folder) => {
    mustRun('sh', ['-c', line], folder);
    return folder;
  });
}

/**
 * A fresh consumer project with the tarball installed by npm, as a user would: the README's Node
 * quick start (`npm init -y && npm install sandpit-workspace`), run once per run and shared with
 * test/docs/quick-starts.test.ts; each consumer has a copy of that install's node_modules, hard
 * links to the same files. Dependencies come from npm's cache when it has them; the build tools are
 * linked from this checkout.
 */
export async function makeConsumer(work: string, tarball: string): Promise<string> {
  const installed = await installedOncePerRun(work, localInstall(README_NODE_INSTALL, tarball));
  const app = join(work, 'app');
  await mkdir(app);
  const { dependencies } = JSON.parse(await readFile(join(installed, 'package.json'), 'utf8'));
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2),
  );
  copyInstall(join(installed, 'node_modules'), join(app, 'node_modules'));
  for (const name of BORROWED) {
    const target = join(app, 'node_modules', name);
    if (existsSync(target)) continue;
    await mkdir(join(target, '..'), { recursive: true });
    await symlink(join(repoRoot, 'node_modules', name), target, 'dir');
  }
  return app;
}

/** What npm rewrites in place when it installs into a project, below a project or its node_modules. */
const NPM_RECORDS = ['package.json', 'package-lock.json', '.package-lock.json', 'node_modules/.package-lock.json'];

/**
 * A copy of an installed folder for one test to add to: its folders its own, its files hard links to
 * the install's (the same names, bytes and modes, so node and every bundler resolve and read them as
 * in a copy), and npm's own records real copies, since a later `npm install` rewrites them in place.
 * Copying the install's 8,400 files and 70 MB with `cp -a` and removing them cost 2.6 to 8.4
 * CPU-seconds, more as a run frees inodes (making files is dear on ext4 without a journal); linked,
 * 0.9 to 1.4. Whoever gets a copy may add, remove and replace files, never write into one in place.
 * Across file systems (no hard links there), a real copy.
 */
export function copyInstall(from: string, to: string): void {
  if (run('cp', ['-al', from, to], repoRoot).status !== 0) {
    rmSync(to, { recursive: true, force: true });
    mustRun('cp', ['-a', from, to], repoRoot);
    return;
  }
  for (const rel of NPM_RECORDS) {
    const source = join(from, rel);
    if (!existsSync(source)) continue;
    const target = join(to, rel);
    unlinkSync(target);
    copyFileSync(source, target);
    // The install's times, its folder's too: npm trusts its hidden lockfile only while it is the newest.
    for (const [a, b] of [
      [source, target],
      [dirname(source), dirname(target)],
    ] as const) {
      const { atime, mtime } = statSync(a);
      utimesSync(b, atime, mtime);
    }
  }
}

/** Write files below `dir`, making folders as needed. */
export async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
  }
}
