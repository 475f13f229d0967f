import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/index.js';

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('leaves the temporary files of killed writes out of snapshots, and removes abandoned ones', async () => {
  root = mkdtempSync(join(tmpdir(), 'sandpit-leftover-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.txt'), 'a\n');
  const abandoned = join(root, 'src', '.a.txt.0123456789ab.sandpit-tmp');
  const inFlight = join(root, '.b.txt.abcdefabcdef.sandpit-tmp');
  const lookalike = join(root, '.notes.sandpit-tmp');
  writeFileSync(abandoned, 'half a');
  writeFileSync(inFlight, 'being written');
  writeFileSync(lookalike, 'a file of the user\n');
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(abandoned, hourAgo, hourAgo);
  utimesSync(lookalike, hourAgo, hourAgo);

  const ws = openNodeWorkspace(root);
  expect((await ws.call('write_file', { path: 'b.txt', content: 'b\n' })).ok).toBe(true);
  expect(existsSync(abandoned)).toBe(false);
  expect(existsSync(inFlight)).toBe(true);
  expect(existsSync(lookalike)).toBe(true);
  const held = [...(await ws.snapshots!.tree.files()).keys()].sort();
  expect(held).toEqual(['.notes.sandpit-tmp', 'b.txt', 'src/a.txt']);
  await ws.close();
});
