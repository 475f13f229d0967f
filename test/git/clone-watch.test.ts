import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { createRepo, gitServerForFile } from './git-server.js';
import { countingNodeFs, inotifyWatches } from '../support/node-watch-probes.js';

// A clone's checkout is not watched file by file: the node backend's folder watcher would hear
// every file of it on its own thread, while the clone's adopted history makes the next rescan look
// at everything anyway. That rescan watches again, so later rescans look only where changes behind
// the tools' back were seen, and miss none.

const server = gitServerForFile();
let root: string | null = null;
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
});

const DIRS = 12;
const files = Object.fromEntries(
  Array.from({ length: DIRS * 5 }, (_, i) => [`pkg/d${i % DIRS}/f${i}.txt`, `file ${i}\n`]),
);

/** path -> blob id of every file below `dir`, leaving out Sandpit's state and the clone's `.git`. */
function onDisk(dir: string, rel = '', out = new Map<string, string>()): Map<string, string> {
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    if (rel === '' && (e.name === '.sandpit' || e.name === '.git')) continue;
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) onDisk(dir, path, out);
    else {
      const bytes = readFileSync(join(dir, path));
      out.set(path, createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex'));
    }
  }
  return out;
}

it.runIf(process.platform === 'linux')(
  'on node, a clone leaves no watch on its checkout; the next rescan watches again and later ones look only where changes were',
  async () => {
    createRepo(server, 'watched', files);
    root = mkdtempSync(join(tmpdir(), 'sandpit-clone-watch-'));
    const at = root;
    const { fs, listed } = countingNodeFs(at);
    const watchesBefore = inotifyWatches();
    const ws = createWorkspace({ fs, root: at });
    const cloned = await ws.git.clone({ url: `${server.url}/watched.git` });
    expect(cloned.ok, JSON.stringify(cloned)).toBe(true);
    // the workspace's open watched its empty root; the clone let that watch go before its checkout
    await expect.poll(() => inotifyWatches()).toBe(watchesBefore);

    await ws.rescan();
    const held = async () => new Map([...(await ws.snapshots!.tree.files(''))].map(([path, leaf]) => [path, leaf.oid]));
    expect(await held()).toEqual(onDisk(at));
    // every cloned folder is watched again (the root, pkg and its DIRS folders at least)
    expect(inotifyWatches()).toBeGreaterThan(watchesBefore + DIRS);

    const steps: Array<[string, () => void]> = [
      ['an edit', () => writeFileSync(join(at, 'pkg/d3/f3.txt'), 'changed\n')],
      ['a new file', () => writeFileSync(join(at, 'pkg/d4/new.txt'), 'new\n')],
      ['a delete', () => unlinkSync(join(at, 'pkg/d5/f5.txt'))],
    ];
    for (const [what, change] of steps) {
      change();
      const before = listed();
      await ws.rescan();
      expect(await held(), what).toEqual(onDisk(at));
      expect(listed() - before, `${what}: folders listed`).toBeLessThan(DIRS / 2);
    }
    await ws.close();
    await expect.poll(() => inotifyWatches()).toBe(watchesBefore);
  },
);
