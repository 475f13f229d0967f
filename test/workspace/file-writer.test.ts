import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createWorkspace,
  type ToolDefinition,
  type Workspace,
  type WorkspaceFs,
} from '../../src/index.js';
import { createNodeFs } from '../../src/fs/node.js';
import { coworkTools } from '../../src/toolsets/cowork.js';
import { fileManagerTools } from '../../src/toolsets/file-manager.js';
import { fsProcessTools } from '../../src/toolsets/fs-process.js';
import { faultyFs } from '../support/faulty-fs.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-writer-'));
  dirs.push(dir);
  return dir;
}

/** Counts every readFile the workspace makes of one path, and every hash it asks the backend for. */
function counting(inner: WorkspaceFs): WorkspaceFs & { reads: Map<string, number>; hashes: number } {
  const reads = new Map<string, number>();
  const state = { hashes: 0 };
  const out = Object.create(inner) as WorkspaceFs & { reads: Map<string, number>; hashes: number };
  out.readFile = async (path: string) => {
    // isomorphic-git probes readFile() with no path to tell a promise fs; that reads nothing
    if (path !== undefined) reads.set(path, (reads.get(path) ?? 0) + 1);
    return inner.readFile(path);
  };
  // With a native hasher every sha256 the workspace takes goes through it, so it can be counted.
  Object.defineProperty(out, 'native', {
    value: {
      ...(inner.native ?? {}),
      sha256Hex: (bytes: Uint8Array) => {
        state.hashes++;
        return createHash('sha256').update(bytes).digest('hex');
      },
    },
  });
  Object.defineProperty(out, 'hashes', { get: () => state.hashes });
  Object.defineProperty(out, 'reads', { value: reads });
  return out;
}

describe('the one write path', () => {
  it('reads each patched file once and hashes it once per apply_patch, snapshot included', async () => {
    const fs = counting(createMemoryFs({ 'a.txt': 'one\ntwo\n', 'b.txt': 'uno\ndos\n' }));
    const ws = createWorkspace({ fs });
    await ws.call('list_snapshots', {});
    expect((await ws.call('snapshot', { message: 'start' })).ok).toBe(true);
    fs.reads.clear();
    const before = fs.hashes;
    const patch =
      '*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n*** Update File: b.txt\n@@\n uno\n-dos\n+2\n*** End Patch\n';
    const out = await ws.call('apply_patch', { patch });
    expect(out.ok, JSON.stringify(out)).toBe(true);
    expect(Object.fromEntries([...fs.reads].filter(([p]) => !p.startsWith('/.sandpit/')))).toEqual({
      '/a.txt': 1,
      '/b.txt': 1,
    });
    // one sha256 per written file (the ledger's), none for old bytes nobody read
    expect(fs.hashes - before).toBe(2);
    const listed = await ws.call<{ snapshots: Array<{ message: string; files_changed: number }> }>('list_snapshots', {
      limit: 1,
    });
    expect(listed.ok && listed.result.snapshots[0]!.files_changed).toBe(2);
  });

  it('rolls a multi-file change back at every failing step, with nothing left behind', async () => {
    const patch =
      '*** Begin Patch\n*** Add File: new/deep/n.txt\n+n\n*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: gone.txt\n*** End Patch\n';
    const clean = faultyFs(createMemoryFs({ 'a.txt': 'a\n', 'gone.txt': 'g\n' }));
    expect((await createWorkspace({ fs: clean, snapshots: false }).call('apply_patch', { patch })).ok).toBe(true);
    const steps = clean.counted;
    expect(steps).toBeGreaterThan(3);
    for (let k = 1; k <= steps; k++) {
      const fs = faultyFs(createMemoryFs({ 'a.txt': 'a\n', 'gone.txt': 'g\n' }), { failAt: k });
      const out = await createWorkspace({ fs, snapshots: false }).call('apply_patch', { patch });
      expect(out.ok, `step ${k}`).toBe(false);
      fs.plan = {};
      expect((await fs.readdir('/')).sort(), `step ${k}`).toEqual(['a.txt', 'gone.txt']);
      expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe('a\n');
    }
  });

  it('refuses every change under a .git folder, across the tools, and lets the policy allow it', async () => {
    const fs = createMemoryFs({ 'repo/.git/config': '[core]\n', 'repo/src/a.txt': 'a\n' });
    const ws = createWorkspace({ fs });
    const patch = '*** Begin Patch\n*** Add File: repo/.git/hooks/pre-commit\n+#!/bin/sh\n*** End Patch\n';
    const calls: Array<[string, Record<string, unknown>]> = [
      ['write_file', { path: 'repo/.git/hooks/pre-commit', content: 'evil' }],
      ['append_file', { path: 'repo/.git/config', content: '[alias]\n' }],
      ['edit_file', { path: 'repo/.git/config', old_text: '[core]', new_text: '[x]' }],
      ['create_directory', { path: 'repo/.git/hooks' }],
      ['delete_path', { path: 'repo/.git/config' }],
      ['delete_path', { path: 'repo', recursive: true }],
      ['move_path', { from: 'repo/.git', to: 'git-moved' }],
      ['move_path', { from: 'repo', to: 'elsewhere' }],
      ['move_path', { from: 'repo/src/a.txt', to: 'repo/.git/a.txt' }],
      ['apply_patch', { patch }],
    ];
    for (const [tool, args] of calls) {
      const out = await ws.call(tool, args);
      expect(out.ok ? 'ok' : out.error.code, `${tool} ${JSON.stringify(args)}`).toBe('PERMISSION_DENIED');
    }
    expect((await ws.call('read_file', { path: 'repo/.git/config' })).ok).toBe(true);
    const imported = await ws.importFiles([
      { path: '.git/HEAD', bytes: new TextEncoder().encode('ref: x\n') },
      { path: 'ok.txt', bytes: new Uint8Array([1]) },
    ]);
    expect(imported.ok && imported.result.skipped.map((s) => s.code)).toEqual(['PERMISSION_DENIED']);
    expect(new TextDecoder().decode(await fs.readFile('/repo/.git/config'))).toBe('[core]\n');
    const allowed = createWorkspace({ fs, policy: { allowGitWrites: true } });
    expect((await allowed.call('write_file', { path: 'repo/.git/info', content: 'x' })).ok).toBe(true);
  });

  it('refuses the spellings a case-folding or 8.3 file system maps onto .git', async () => {
    const fs = createMemoryFs({ 'repo/a.txt': 'a\n' });
    const ws = createWorkspace({ fs });
    for (const path of [
      'repo/.GIT/hooks/pre-commit',
      'repo/.Git/config',
      '.gIt',
      'repo/git~1/hooks/post-merge',
      'GIT~1/config',
      'repo/.git./config',
      'repo/.git /x',
    ]) {
      const out = await ws.call('write_file', { path, content: 'evil' });
      expect(out.ok ? 'ok' : out.error.code, path).toBe('PERMISSION_DENIED');
    }
    for (const [tool, args] of [
      ['create_directory', { path: 'repo/.GIT' }],
      ['move_path', { from: 'repo/a.txt', to: 'repo/Git~1/a.txt' }],
    ] as const) {
      const out = await ws.call(tool, args);
      expect(out.ok ? 'ok' : out.error.code, tool).toBe('PERMISSION_DENIED');
    }
    expect((await fs.readdir('/repo')).sort()).toEqual(['a.txt']);
    // names that only look alike are ordinary files
    for (const path of ['repo/.github/workflows/ci.yml', 'repo/.gitignore', 'repo/git~a', 'repo/my.git/x']) {
      expect((await ws.call('write_file', { path, content: 'ok' })).ok, path).toBe(true);
    }
  });

  it("refuses the built-in shell's writes under .git in any spelling", async () => {
    const fs = createMemoryFs({ 'repo/.git/config': '[core]\n', 'repo/a.txt': 'a\n' });
    const ws = createWorkspace({ fs });
    for (const command of [
      'echo x > repo/.git/hooks-pre-commit',
      'echo x > repo/.GIT',
      'mkdir -p repo/git~1/hooks',
      'cp repo/a.txt repo/.Git',
    ]) {
      const out = await ws.call<{ exit_code: number }>('run_command', { command });
      expect(JSON.stringify(out), command).toContain('PERMISSION_DENIED');
    }
    expect(await fs.readdir('/repo/.git')).toEqual(['config']);
    expect((await fs.readdir('/repo')).sort()).toEqual(['.git', 'a.txt']);
    const ok = await ws.call<{ exit_code: number }>('run_command', { command: 'echo x > repo/b.txt' });
    expect(ok.ok && ok.result.exit_code).toBe(0);
  });

  it('refuses .git changes through every seed toolset too', async () => {
    const seed = () => createMemoryFs({ 'repo/.git/config': '[core]\n', 'repo/a.txt': 'a\n' });
    const cases: Array<[ToolDefinition[], string, Record<string, unknown>]> = [
      [fsProcessTools(), 'write_file', { path: 'repo', file: '.git/hooks/pre-commit', content: 'evil' }],
      [fsProcessTools(), 'edit_file', { path: 'repo', file: '.git/config', old: '[core]', new: '[x]' }],
      [
        fileManagerTools(),
        'file_manager',
        { operations: [{ action: 'write_file', path: 'repo/.git/hooks/post-merge', content: 'evil' }] },
      ],
      [fileManagerTools(), 'file_manager', { operations: [{ action: 'create_directory', path: 'repo/.git/hooks' }] }],
      [
        coworkTools(),
        'apply_patch',
        { patch: '*** Begin Patch\n*** Add File: repo/.git/hooks/pre-push\n+x\n*** End Patch\n' },
      ],
      [coworkTools(), 'rename_path', { from: 'repo/a.txt', to: 'repo/.git/a.txt' }],
      [coworkTools(), 'delete_path', { path: 'repo/.git/config' }],
    ];
    for (const [tools, tool, args] of cases) {
      const fs = seed();
      // an approver that says yes, so only the .git rule can refuse
      const ws = createWorkspace({ fs, tools, policy: { confirm: () => true } });
      if (tool === 'apply_patch' || tool === 'rename_path') await ws.call('text_file_read', { path: 'repo/a.txt' });
      const out = await ws.call(tool, args);
      expect(JSON.stringify(out), `${tool} ${JSON.stringify(args)}`).toContain('PERMISSION_DENIED');
      expect(new TextDecoder().decode(await fs.readFile('/repo/.git/config'))).toBe('[core]\n');
      expect(await fs.readdir('/repo/.git')).toEqual(['config']);
    }
  });

  it('records an import made through it in the change log', async () => {
    const ws = createWorkspace({ fs: createMemoryFs() });
    const out = await ws.importFiles([{ path: 'x/y.txt', bytes: new TextEncoder().encode('hi\n') }]);
    expect(out.ok).toBe(true);
    const id = out.ok ? out.result.change_id! : '';
    expect(ws.changes.get(id)?.unified_diff).toContain('+hi');
  });
});

describe("undo and restore after a folder is swapped for a link behind the tools' back", () => {
  async function swapped(): Promise<{ ws: Workspace; outside: string; root: string }> {
    const base = await tempDir();
    const root = join(base, 'ws');
    const outside = join(base, 'outside');
    await mkdir(root);
    await mkdir(outside);
    await writeFile(join(outside, 't.txt'), 'outside\n');
    const ws = createWorkspace({ fs: createNodeFs(), root });
    expect((await ws.call('write_file', { path: 'd/t.txt', content: 'first\n' })).ok).toBe(true);
    expect((await ws.call('write_file', { path: 'd/t.txt', content: 'second\n' })).ok).toBe(true);
    await rename(join(root, 'd'), join(base, 'parked'));
    await symlink(outside, join(root, 'd'));
    return { ws, outside, root };
  }

  it('undo never writes outside', async () => {
    const { ws, outside } = await swapped();
    const out = await ws.call('undo', {});
    expect(await readFile(join(outside, 't.txt'), 'utf8')).toBe('outside\n');
    if (out.ok) expect(out.result).toBeDefined();
    else expect(['PERMISSION_DENIED', 'OUTSIDE_WORKSPACE', 'NOT_A_DIRECTORY']).toContain(out.error.code);
  });

  it('restore_snapshot never writes outside', async () => {
    const { ws, outside } = await swapped();
    const list = await ws.call<{ snapshots: Array<{ id: string }> }>('list_snapshots', {});
    const oldest = list.ok ? list.result.snapshots.at(-1)!.id : '';
    const out = await ws.call('restore_snapshot', { id: oldest });
    expect(await readFile(join(outside, 't.txt'), 'utf8')).toBe('outside\n');
    expect((await readFile(join(outside, 't.txt'))).length).toBe(8);
    expect(out.ok ? 'ok' : out.error.code).not.toBe('IO_ERROR');
  });
});
