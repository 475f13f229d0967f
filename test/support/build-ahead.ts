import { spawn, type SpawnOptions } from 'node:child_process';
import { mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where a thing built once per run lives under the run's folder: its folder, its lock, its mark. */
export function onceFiles(root: string, name: string): { dir: string; lock: string; done: string } {
  return { dir: join(root, name), lock: join(root, `${name}.lock`), done: join(root, `${name}.built`) };
}

export interface BuildCommand {
  command: string;
  args: string[];
  options: SpawnOptions;
}

/**
 * Start building `name` for the run now, in a child process, instead of when the first file asks
 * (test/support/built-once.ts): a global setup starts it, and the build runs while vitest starts
 * its workers and the browser, which leave a core idle. It holds the lock a file would take, so a
 * file that asks meanwhile waits for its mark. A failed build leaves no mark: the first file that
 * asks builds again and reports why. Returns a stop for the run's end. Imports nothing of
 * vitest's, so a global setup may use it.
 */
export function buildAhead(root: string, name: string, make: (dir: string) => BuildCommand): () => Promise<void> {
  const { dir, lock, done } = onceFiles(root, name);
  try {
    mkdirSync(lock);
  } catch {
    // someone is building it already
    return async () => {};
  }
  const { command, args, options } = make(dir);
  let ended = false;
  const end = (ok: boolean) => {
    if (ended) return;
    ended = true;
    // The run's folder may be gone already: another project's teardown removes it.
    try {
      if (ok) writeFileSync(done, '');
      rmdirSync(lock);
    } catch {
      /* nothing left to mark */
    }
  };
  // A group of its own, so a run that ends first stops the whole build (npm, its shell, the bundler).
  const child = spawn(command, args, { ...options, stdio: 'ignore', detached: true });
  const finished = new Promise<void>((resolve) => {
    child.once('error', () => resolve(end(false)));
    child.once('close', (code) => resolve(end(code === 0)));
  });
  return async () => {
    if (!ended && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await finished;
  };
}
