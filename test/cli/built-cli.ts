import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { buildDist } from './build-dist.js';

/** The repository root, where `npm run build` runs and `dist/` appears. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** The file package.json's `bin.sandpit` points at. */
export const cliPath = fileURLToPath(new URL('../../dist/node/cli.js', import.meta.url));

/**
 * Make sure `dist/` holds a CLI compiled from the current sources. The node project's global
 * setup builds once before any test file runs (`test/cli/build-global-setup.ts`); a file run
 * outside it builds here.
 */
export async function buildCli(): Promise<void> {
  if (inject('cliBuiltThisRun')) return;
  await buildDist();
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built CLI as a real child process, optionally feeding stdin. */
export function runCli(
  args: string[],
  options: { input?: string; cwd?: string; env?: Record<string, string> } = {},
): Promise<CliRun> {
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

/**
 * Run a command line in this process through the built CLI's `main` (dist/node/cli/main.js), for
 * tests about what a command answers rather than about the process: the bin runs the same `main`
 * after its relaunch, and each spawn paid a Node start and the CLI's module loading, seconds a call
 * on a loaded machine. Calls must not overlap (vitest runs a file's tests one at a time): stdout and
 * stderr are this process's, captured for the call.
 */
export async function runMain(args: string[]): Promise<CliRun> {
  const { main } = (await import(/* @vite-ignore */ mainPath)) as { main(argv: string[]): Promise<number> };
  let stdout = '';
  let stderr = '';
  const capture = (stream: NodeJS.WriteStream, add: (text: string) => void) => {
    const write = stream.write;
    stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      add(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof stream.write;
    return () => {
      stream.write = write;
    };
  };
  const restoreOut = capture(process.stdout, (t) => (stdout += t));
  const restoreErr = capture(process.stderr, (t) => (stderr += t));
  try {
    return { code: await main(args), stdout, stderr };
  } finally {
    restoreOut();
    restoreErr();
  }
}
const mainPath = new URL('../../dist/node/cli/main.js', import.meta.url).href;

/** Parse stdout holding one JSON envelope per line. */
export function envelopes(stdout: string): Array<Record<string, any>> {
  return stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, any>);
}
