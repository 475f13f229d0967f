import { link, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openNodeWorkspace } from '../../src/node/open.js';

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'sandpit-hardlink-'));
  await mkdir(join(base, 'ws'));
  await writeFile(join(base, 'secret.txt'), 'outside secret\n');
  await link(join(base, 'secret.txt'), join(base, 'ws', 'linked.txt'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

/** The files the shadow repository's latest snapshot holds, as real git lists them. */
function snapshotFiles(gitdir: string): string[] {
  return execFileSync('git', ['--git-dir', gitdir, 'ls-tree', '-r', '--name-only', 'HEAD'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('a file hard-linked from outside the workspace', () => {
  it('is refused by every reading tool, and a write replaces the link instead of writing through it', async () => {
    const ws = openNodeWorkspace(join(base, 'ws'));
    for (const [tool, args] of [
      ['read_file', { path: 'linked.txt' }],
      ['read_file', { path: 'linked.txt', start_line: 1, end_line: 1 }],
      ['file_bytes', { path: 'linked.txt' }],
      ['edit_file', { path: 'linked.txt', old_text: 'outside', new_text: 'x' }],
    ] as const) {
      const out = await ws.call(tool, args);
      expect(out.ok ? 'ok' : out.error.code, tool).toBe('OUTSIDE_WORKSPACE');
      expect(JSON.stringify(out)).not.toContain('outside secret');
    }
    expect((await ws.call('write_file', { path: 'linked.txt', content: 'mine\n' })).ok).toBe(true);
    expect(await readFile(join(base, 'secret.txt'), 'utf8')).toBe('outside secret\n');
    expect((await ws.call('read_file', { path: 'linked.txt' })).ok).toBe(true);
    await ws.close();
  });

  it('is read when the policy allows hard links', async () => {
    await link(join(base, 'secret.txt'), join(base, 'ws', 'allowed.txt'));
    const ws = openNodeWorkspace(join(base, 'ws'), { policy: { allowHardLinks: true } });
    const out = await ws.call<{ content: string }>('read_file', { path: 'allowed.txt' });
    expect(out.ok && out.result.content).toBe('outside secret\n');
    await ws.close();
  });
});

describe('a hard-linked file in searches and snapshots', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandpit-hardlink-search-'));
    await mkdir(join(dir, 'ws', 'sub'), { recursive: true });
    await writeFile(join(dir, 'secret.txt'), 'outside secret token\n');
    await writeFile(join(dir, 'ws', 'own.txt'), 'my own token\n');
    await link(join(dir, 'secret.txt'), join(dir, 'ws', 'sub', 'linked.txt'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("is skipped by search_files and reported as OUTSIDE_WORKSPACE; named alone it is refused with read_file's hint", async () => {
    const ws = openNodeWorkspace(join(dir, 'ws'));
    const out = await ws.call<{
      matches: Array<{ path: string }>;
      truncated: boolean;
      skipped?: Array<{ path: string; reason: string }>;
    }>('search_files', { pattern: 'token' });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.result.matches.map((m) => m.path)).toEqual(['own.txt']);
    expect(out.result.skipped).toEqual([
      { path: 'sub/linked.txt', reason: expect.stringMatching(/^OUTSIDE_WORKSPACE: .*2 hard links/) },
    ]);
    expect(out.result.truncated).toBe(true);
    expect(JSON.stringify(out)).not.toContain('outside secret');

    const named = await ws.call('search_files', { pattern: 'token', path: 'sub/linked.txt' });
    const read = await ws.call('read_file', { path: 'sub/linked.txt' });
    expect(named.ok ? 'ok' : named.error.code).toBe('OUTSIDE_WORKSPACE');
    expect(!named.ok && !read.ok && named.error.hint).toBe(!read.ok && read.error.hint);
    expect(!named.ok && named.error.hint).toMatch(/allowHardLinks/);
    expect(JSON.stringify(named)).not.toContain('outside secret');
    await ws.close();
  });

  it("is skipped by the seed toolset's search too", async () => {
    const ws = openNodeWorkspace(join(dir, 'ws'), { toolset: 'fs_process', snapshots: false });
    const out = await ws.call<{ matches: Array<{ file: string }> }>('search_files', { pattern: 'token' });
    expect(out.ok && out.result.matches.map((m) => m.file)).toEqual(['own.txt']);
    await ws.close();
  });

  it('is searched when the policy allows hard links', async () => {
    const ws = openNodeWorkspace(join(dir, 'ws'), { policy: { allowHardLinks: true }, snapshots: false });
    const out = await ws.call<{ matches: Array<{ path: string }> }>('search_files', { pattern: 'token' });
    expect(out.ok && out.result.matches.map((m) => m.path)).toEqual(['own.txt', 'sub/linked.txt']);
    await ws.close();
  });

  it('is left out of snapshots and reported as skipped, so no diff shows its text', async () => {
    const ws = openNodeWorkspace(join(dir, 'ws'), { snapshots: { dir: '.sandpit/plain' } });
    const snap = await ws.call<{ id: string; skipped?: Array<{ path: string; reason: string }> }>('snapshot', {
      message: 'with a hard link',
    });
    expect(snap.ok && snap.result.skipped).toEqual([{ path: 'sub/linked.txt', size_bytes: 21, reason: 'hard_linked' }]);
    const diff = await ws.call<{ files: Array<{ path: string }>; unified_diff: string }>('diff_snapshots', {});
    expect(diff.ok).toBe(true);
    expect(JSON.stringify(diff)).not.toContain('outside secret');
    await ws.close();
    expect(snapshotFiles(join(dir, 'ws', '.sandpit', 'plain'))).toEqual(['own.txt']);
  });

  it('is kept in snapshots when the policy allows hard links', async () => {
    const ws = openNodeWorkspace(join(dir, 'ws'), {
      policy: { allowHardLinks: true },
      snapshots: { dir: '.sandpit/allowed' },
    });
    const snap = await ws.call<{ skipped?: unknown[] }>('snapshot', { message: 'allowed' });
    expect(snap.ok && snap.result.skipped).toEqual([]);
    await ws.close();
    expect(snapshotFiles(join(dir, 'ws', '.sandpit', 'allowed'))).toEqual(['own.txt', 'sub/linked.txt']);
  });
});
