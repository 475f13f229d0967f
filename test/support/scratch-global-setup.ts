import { mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * Make the project's scratch TMPDIR (test/support/scratch-folder.ts) before its files run, and
 * remove it when the run ends: a folder on tmpfs holds memory until it goes.
 */
export default function setup(project: TestProject): () => void {
  const dir = project.config.env?.SANDPIT_SCRATCH_TMPDIR;
  if (dir) mkdirSync(dir, { recursive: true, mode: 0o700 });
  return () => {
    if (!dir) return;
    rmSync(dir, { recursive: true, force: true });
    try {
      // the run's folder, once the last project's is gone
      rmdirSync(dirname(dir));
    } catch {
      /* another project still has its folder there */
    }
  };
}
