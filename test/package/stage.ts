import { spawnSync } from 'node:child_process';
import { cp, mkdir, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** What `npm pack` needs to build the package: everything else in the checkout is left out. */
const BUILD_INPUTS = [
  'package.json',
  'README.md',
  'LICENSE',
  'tsconfig.json',
  'tsconfig.build.json',
  'tsconfig.web-types.json',
  'vite.web.config.ts',
  'scripts',
  'src',
  'web',
  'test/patch/scenarios',
];

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
 * Build and pack the package from a copy of its sources, so the shared dist/ that other tests
 * run from is never rewritten under them. The copy borrows this checkout's node_modules.
 */
export async function packSandpit(work: string): Promise<Packed> {
  const copy = join(work, 'sandpit');
  await mkdir(copy);
  for (const input of BUILD_INPUTS) await cp(join(repoRoot, input), join(copy, input), { recursive: true });
  await symlink(join(repoRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  mustRun('npm', ['run', 'build'], copy);
  const out = mustRun('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], copy);
  const [info] = JSON.parse(out) as Array<{ filename: string; files: Array<{ path: string }> }>;
  return { tarball: join(work, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

/**
 * A fresh consumer project with the tarball installed by npm, as a user would. Dependencies come
 * from npm's cache when it has them; the build tools are linked from this checkout.
 */
export async function makeConsumer(work: string, tarball: string): Promise<string> {
  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2),
  );
  mustRun('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], app);
  for (const name of BORROWED) {
    const target = join(app, 'node_modules', name);
    if (existsSync(target)) continue;
    await mkdir(join(target, '..'), { recursive: true });
    await symlink(join(repoRoot, 'node_modules', name), target, 'dir');
  }
  return app;
}

/** Write files below `dir`, making folders as needed. */
export async function writeTree(dir: string, files: Record<string, string>): Promise<void> {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(dir, rel);
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(path, text);
  }
}
