import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { guardRepositories } from '../../src/node/process/sandbox-git-guard.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandpit-guard-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

// bubblewrap mounts each read-only path after the guard returns: one that another command's
// finish removes in between fails the command ("Unable to find ... in mount table").
it('a placeholder a command is given stays until that command finishes, however the commands before it end', async () => {
  for (const gitWritable of [true, false]) {
    for (let round = 0; round < 40; round++) {
      const first = await guardRepositories(root, gitWritable);
      const ending = first.finish();
      const next = await guardRepositories(root, gitWritable);
      await ending;
      for (const path of next.readOnly) expect(existsSync(path), `${path} in round ${round}`).toBe(true);
      await next.finish();
      expect(await readdir(root)).toEqual([]);
    }
  }
});

it('placeholders shared by commands running at once are removed when the last of them ends', async () => {
  const guards = await Promise.all(Array.from({ length: 8 }, () => guardRepositories(root, false)));
  expect((await readdir(root)).sort()).toEqual(['.git', '.sandpit']);
  for (const guard of guards.slice(0, -1)) await guard.finish();
  expect((await readdir(root)).sort()).toEqual(['.git', '.sandpit']);
  await guards.at(-1)!.finish();
  expect(await readdir(root)).toEqual([]);
});
