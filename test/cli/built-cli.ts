import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root, where `npm run build` runs and `dist/` appears. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The file package.json's `bin.sandpit` points at. */
export const cliPath = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));

const lock = fileURLToPath(new URL('../../node_modules/.cache/sandpit-cli-build.lock', import.meta.url));

/**
 * Run `npm run build` so the tests exercise the compiled CLI. Test files run in parallel
 * workers, and two tsc runs writing the same files could let a child read a half-written
 * module, so builds take turns through a lock folder.
 */
export async function buildCli(): Promise<void> {
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
    const started = Date.now();
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

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real child process, optionally feeding stdin. */
export function runCli(args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const env = options.env ? { ...process.env, ...options.env } : process.env;
    const child = spawn(process.execPath, [cliPath, ...args], { cwd: options.cwd ?? repoRoot, env, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** Parse stdout holding one JSON envelope per line. */
export function envelopes(stdout: string): Array<Record<string, any>> {
  return stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, any>);
}
