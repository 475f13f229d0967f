import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { BENEATH_SUPPORTED } from '../../src/fs/node-beneath.js';
import { createNodeFs } from '../../src/fs/node.js';

// A search reads many folders at once, each holding its kept descriptor until its files are read.
// With more folders in flight than the cache keeps (32), the folder being kept must not be the one
// evicted: it was closed while handed out, then closed again (EBADF, the whole search IO_ERROR),
// and its number, free meanwhile, could name whatever the process opened next.
let base: string;
let root: string;
const openFds = () => readdirSync('/proc/self/fd').length;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'sandpit-kept-busy-'));
  root = join(base, 'ws');
  for (let i = 0; i < 70; i++) {
    mkdirSync(join(root, 'wide', `d${String(i).padStart(2, '0')}`), { recursive: true });
    writeFileSync(join(root, 'wide', `d${String(i).padStart(2, '0')}`, 'f.txt'), `x ${i} NEEDLE_TOKEN_42\n`);
  }
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe.runIf(BENEATH_SUPPORTED)('node backend: more folders in use than it keeps', () => {
  it('a search over 70 sibling folders on a rooted backend finds every match', async () => {
    const before = openFds();
    const fs = createNodeFs({ root });
    const ws = createWorkspace({ fs, root });
    const r = await ws.call('search_files', { pattern: 'NEEDLE_TOKEN_42', max_matches: 1000 });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.result.count).toBe(70);
    expect(new Set(r.result.matches.map((m: { path: string }) => m.path)).size).toBe(70);
    const again = await ws.call('search_files', { pattern: 'NEEDLE_TOKEN_42', max_matches: 1000 });
    expect(again.ok && again.result.count).toBe(70);
    await fs.close?.();
    expect(openFds() - before).toBeLessThanOrEqual(1); // the root's own descriptor stays
  });
});
