import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { basename, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/**
 * With SANDPIT_CPU_PROFILE=<folder>, vitest.config.ts loads this in every node-side file, and each
 * file writes a V8 CPU profile of its test process to `<folder>/<file>-<pid>.cpuprofile` (open it in
 * Chrome's DevTools or speedscope). `node --cpu-prof` writes nothing from a vitest worker, which
 * vitest ends without Node's exit path; the inspector's profiler is started and read here instead.
 * A child process's CPU is not in it: SANDPIT_SPAWN_LOG gives that.
 */
let session: Session | undefined;

function post<T>(method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) =>
    session?.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  );
}

beforeAll(async () => {
  session = new Session();
  session.connect();
  await post('Profiler.enable');
  // 1 ms between samples, V8's default; finer sampling costs the profiled process itself
  await post('Profiler.setSamplingInterval', { interval: 1000 });
  await post('Profiler.start');
});

// biome-ignore lint/correctness/noEmptyPattern: vitest parses the first argument's pattern for fixtures; the file's suite is the second
afterAll(async ({}, suite) => {
  const folder = process.env.SANDPIT_CPU_PROFILE;
  if (!folder || !session) return;
  const { profile } = await post<{ profile: unknown }>('Profiler.stop');
  session.disconnect();
  session = undefined;
  const file = (suite as { filepath?: string }).filepath ?? suite.file?.filepath ?? 'unknown';
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, `${basename(file)}-${process.pid}.cpuprofile`), JSON.stringify(profile));
});
