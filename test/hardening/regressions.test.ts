import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, toolset } from '../../src/index.js';
import { classify } from './path-oracle.js';
import { createNodeFs } from '../../src/fs/node.js';

/** Defects the hardening fuzzers found, pinned so they stay fixed. */
describe('hardening regressions', () => {
  // found by path fuzzing: a snapshot keeps a link's target as its blob, and the diff printed it
  it('diff_snapshots never prints the host path an absolute link points at', async () => {
    const fs = createMemoryFs({ '/srv/host-only/secret.txt': 'secret\n', '/srv/ws/keep.txt': 'k\n' });
    await fs.symlink('/srv/host-only', '/srv/ws/out');
    await fs.symlink('keep.txt', '/srv/ws/in');
    const ws = createWorkspace({ fs, root: '/srv/ws' });
    expect((await ws.call('write_file', { path: 'a.txt', content: 'a\n' })).ok).toBe(true);
    expect((await ws.call('delete_path', { path: 'out' })).ok).toBe(true);
    expect((await ws.call('delete_path', { path: 'in' })).ok).toBe(true);
    const diff = await ws.call('diff_snapshots', { from: await firstSnapshot(ws), path: '' });
    expect(diff.ok, JSON.stringify(diff)).toBe(true);
    const text = JSON.stringify(diff);
    expect(text).toContain('out');
    expect(text).not.toContain('/srv/host-only');
    // a relative link names no host folder; its target stays visible to a reviewer
    expect(text).toContain('keep.txt');
  });
});

describe('hardening regressions: the oracle', () => {
  // found by the IndexedDB slice in Chromium: the oracle read `../b/x` from `a/b` as a climb out of
  // the root, while fs_process takes `file` under its project folder, where it ends inside
  it('fs_process reads a file that climbs out of its project folder and back in, and refuses one that stays out', async () => {
    const fs = createMemoryFs({ '/ws/a/b/x.txt': 'hi\n', '/ws/a/y.txt': 'y\n' });
    const ws = createWorkspace({ fs, root: '/ws', cwd: 'a/b', tools: toolset('fs_process').tools });
    expect(await ws.call('read_file', { file: '../b/x.txt' })).toMatchObject({ ok: true, result: { file: 'x.txt' } });
    expect(await ws.call('read_file', { file: '../y.txt' })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_WORKSPACE' },
    });
    expect(await ws.call('read_file', { file: '../../../x.txt' })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_WORKSPACE' },
    });
    expect(await classify('../b/x.txt', 'a/b', fs, '/ws')).toBe('lexical');
    expect(await classify('./../b/x.txt', 'a/b', fs, '/ws')).toBe('inside');
  });
});

describe('hardening regressions: huge glob patterns', () => {
  // found by call fuzzing: picomatch throws on patterns over 64 KiB, which surfaced as an internal IO_ERROR
  it('glob and search_files answer INVALID_ARGUMENTS for a pattern too long to be a glob', async () => {
    const ws = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'a\n' }), root: '/ws' });
    const long = '\r\n'.repeat(50_000);
    const glob = await ws.call('glob', { pattern: long });
    expect(glob.ok ? 'ok' : glob.error.code).toBe('INVALID_ARGUMENTS');
    const search = await ws.call('search_files', { pattern: 'a', include: [`*${'x'.repeat(100_000)}`] });
    expect(search.ok ? 'ok' : search.error.code).toBe('INVALID_ARGUMENTS');
    expect((await ws.call('glob', { pattern: '*.txt' })).ok).toBe(true);
  });
});

describe('hardening regressions: the shadow repository passes git fsck', () => {
  // found by the crash test: the first snapshot of an empty folder named the empty tree without writing it
  it('a workspace opened on an empty folder leaves a history git fsck accepts', async () => {
    const base = mkdtempSync(join(tmpdir(), 'sandpit-fsck-'));
    try {
      const ws = createWorkspace({ fs: createNodeFs(), root: base });
      expect((await ws.call('write_file', { path: 'a.txt', content: 'a\n' })).ok).toBe(true);
      await ws.close();
      const r = spawnSync('git', ['--git-dir', join(base, '.sandpit', 'git'), 'fsck', '--no-dangling'], {
        encoding: 'utf8',
      });
      expect(`${r.status} ${r.stderr}`).toBe('0 ');
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });
});

describe('hardening regressions: found outside the hardening files', () => {
  // fs_process joined `file` onto the project root before the lexical check: with a current folder
  // set, a host-absolute name was re-rooted inside the workspace instead of refused.
  it('fs_process refuses a host-absolute file even when the workspace has a current folder', async () => {
    const { toolset } = await import('../../src/toolsets/index.js');
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/a/b/keep.txt': 'k\n' }),
      root: '/ws',
      cwd: 'a/b',
      tools: toolset('fs_process').tools,
    });
    const env = await ws.call('write_file', { file: '/etc/host-only/new.txt', content: 'x\n' });
    expect(env.ok ? 'ok' : env.error.code).toBe('OUTSIDE_WORKSPACE');
  });
});

async function firstSnapshot(ws: ReturnType<typeof createWorkspace>): Promise<string> {
  const list = await ws.call('list_snapshots', { limit: 100 });
  if (!list.ok) throw new Error(JSON.stringify(list));
  const snaps = (list.result as { snapshots: Array<{ id: string }> }).snapshots;
  return snaps[snaps.length - 1]!.id;
}
