import { existsSync, mkdirSync, rmdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { onceFiles } from './build-ahead.js';

export interface Built {
  dir: string;
  /** remove the folder when it was this file's own (a shared one belongs to the run) */
  release(): Promise<void>;
}

/**
 * Build something once for the whole run and share it read-only: files in parallel workers take a
 * lock folder, the first builds, the others wait for its `built` mark. Under the run's folder from
 * the global setup (test/cli/build-global-setup.ts), so it goes when the run ends; without that
 * setup, a private build.
 */
export async function builtOnce(name: string, build: (dir: string) => Promise<void>): Promise<Built> {
  const root = inject('sharedDemoBuild');
  if (!root) {
    const dir = await mkdtemp(join(tmpdir(), `sandpit-${name}-`));
    await build(dir);
    return { dir, release: () => rm(dir, { recursive: true, force: true }) };
  }
  const { dir, done, lock } = onceFiles(root, name);
  while (!existsSync(done)) {
    try {
      mkdirSync(lock);
    } catch {
      // another worker is building it: wait for its mark
      await new Promise((resolve) => setTimeout(resolve, 100));
      continue;
    }
    try {
      if (!existsSync(done)) {
        await build(dir);
        writeFileSync(done, '');
      }
    } finally {
      rmdirSync(lock);
    }
  }
  return { dir, release: async () => {} };
}
