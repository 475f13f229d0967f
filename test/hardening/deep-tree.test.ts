import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { FULL } from './sizes.js';

// Past PATH_MAX (4096) either way: 'a/' per level.
const LEVELS = FULL ? 5000 : 2500;
const base = mkdtempSync(join(tmpdir(), 'sandpit-deep-'));
afterAll(() => {
  execFileSync('rm', ['-rf', base]);
});

type Out = Record<string, any>;

describe(`a ${LEVELS}-level folder on the node backend`, () => {
  it('is reported as skipped by every walk, left out of snapshots loudly, and never stops history', async () => {
    const root = join(base, 'ws');
    execFileSync('mkdir', [root]);
    writeFileSync(join(root, 'top.txt'), 'top deep\n');
    const made = Date.now();
    // only relative steps can build a path longer than PATH_MAX: 1,000 levels per mkdir -p and cd
    const step = 'a/'.repeat(1000);
    const script = `${Array.from({ length: Math.floor(LEVELS / 1000) }, () => `mkdir -p ${step} && cd ${step}`).join(' && ')} && ${LEVELS % 1000 ? `mkdir -p ${'a/'.repeat(LEVELS % 1000)} && cd ${'a/'.repeat(LEVELS % 1000)} && ` : ''}echo deep > f.txt`;
    execFileSync('bash', ['-c', script], { cwd: root });
    const makeMs = Date.now() - made;
    const ws = createWorkspace({ fs: createNodeFs(), root });
    const timings: Record<string, number> = {};
    const call = async (tool: string, args: Out): Promise<Out> => {
      const started = Date.now();
      const r = await ws.call(tool, args);
      timings[tool] = Date.now() - started;
      if (!r.ok) throw new Error(`${tool}: ${JSON.stringify(r.error)}`);
      return r.result as Out;
    };
    const glob = await call('glob', { pattern: '**/*.txt' });
    expect(glob.matches).toContain('top.txt');
    expect(glob.truncated).toBe(true);
    expect(glob.skipped[0].reason).toMatch(/too long|deeper than 1024 levels/);
    const search = await call('search_files', { pattern: 'deep' });
    expect(search.matches.map((m: Out) => m.path)).toEqual(['top.txt']);
    expect(search).toMatchObject({
      truncated: true,
      skipped: [expect.objectContaining({ reason: expect.stringMatching(/too long|deeper than 1024 levels/) })],
    });
    const write = await call('write_file', { path: 'new.txt', content: 'x\n' });
    expect(write.snapshot_error).toBeUndefined();
    const list = await call('list_snapshots', {});
    expect(list.snapshots.map((s: Out) => s.message)).toEqual(['write_file: new.txt', 'Workspace opened']);
    const opened = ws.snapshots!.history.chain[0]!;
    expect(opened.skipped.some((s) => s.includes('(unreadable: ENAMETOOLONG)'))).toBe(true);
    await call('undo', {});
    expect((await call('list_snapshots', {})).snapshots).toHaveLength(3);
    // a second process's open (a fresh workspace) reads the history it left
    const again = createWorkspace({ fs: createNodeFs(), root });
    const reopening = Date.now();
    const reopened = await again.call<Out>('list_snapshots', {});
    timings.reopen = Date.now() - reopening;
    timings.make = makeMs;
    expect(reopened.ok && reopened.result.snapshots).toHaveLength(3);
    console.log(
      `[hardening deep] ${LEVELS} levels: ${Object.entries(timings)
        .map(([t, ms]) => `${t} ${ms} ms`)
        .join(', ')} (loaded machine)`,
    );
  });
});
