import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { BENEATH_SUPPORTED } from '../../src/fs/node-beneath.js';
import { createNodeFs } from '../../src/fs/node.js';
import type { WorkspaceFs } from '../../src/fs/types.js';

// A search checks each folder once, when it lists it, and reads the folder's files through the
// descriptor that listing opened (ResolveOptions). These tests swap the folder for a link to a
// folder outside between its listing and its reads, at exactly that point: the reads must land
// neither outside nor in the folder moved away.
let base: string;
let root: string;
let outside: string;
const SECRET = 'OUTSIDE-SECRET-5c1e';

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sandpit-search-swap-'));
  root = join(base, 'ws');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  for (let i = 0; i < 40; i++) {
    writeFileSync(join(root, 'sub', `f${i}.txt`), `needle inside ${i}\n`);
    writeFileSync(join(outside, `f${i}.txt`), `needle ${SECRET} ${i}\n`);
  }
  writeFileSync(join(root, 'top.txt'), 'needle at the top\n');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

/** The node backend on its root, swapping `sub` for a link outside right after `sub` is listed. */
function swappingAfterListing(parked: string): { fs: WorkspaceFs; swapped: () => boolean } {
  const inner = createNodeFs({ root });
  let swapped = false;
  const fs: WorkspaceFs = {
    ...inner,
    readdirTypes: async (path, options) => {
      const listed = await inner.readdirTypes!(path, options);
      if (path === join(root, 'sub') && !swapped) {
        renameSync(join(root, 'sub'), parked);
        symlinkSync(outside, join(root, 'sub'));
        swapped = true;
      }
      return listed;
    },
  };
  return { fs, swapped: () => swapped };
}

describe.runIf(BENEATH_SUPPORTED)('search on the node backend below its root, a folder swapped mid-search', () => {
  for (const [where, parkedOf] of [
    ['moved out of the root', () => join(base, 'parked')],
    ['moved elsewhere in the root', () => join(root, 'parked')],
  ] as const) {
    it(`reads nothing outside and nothing of the folder ${where}`, async () => {
      const { fs, swapped } = swappingAfterListing(parkedOf());
      const ws = createWorkspace({ fs, root });
      const env = await ws.call<{ matches: Array<{ path: string; content: string }> }>('search_files', {
        pattern: 'needle',
        max_matches: 1000,
      });
      expect(swapped()).toBe(true);
      expect(env.ok).toBe(true);
      const matches = env.ok ? env.result.matches : [];
      expect(JSON.stringify(env)).not.toContain(SECRET);
      // the files listed in `sub` are now behind a link that leaves the root: none is read
      expect(matches.filter((m) => m.path.startsWith('sub/'))).toEqual([]);
      expect(matches.map((m) => m.path)).toContain('top.txt');
      await ws.close();
    });
  }

  it('reads the folder through its listing when nothing moved', async () => {
    const ws = createWorkspace({ fs: createNodeFs({ root }), root });
    const env = await ws.call<{ count: number }>('search_files', { pattern: 'needle', max_matches: 1000 });
    expect(env.ok && env.result.count).toBe(41);
    await ws.close();
  });
});
