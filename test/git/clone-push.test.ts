import { createServer, type AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { backends, everything, workspaceFiles, type Made } from './workspaces.js';
import { createRepo, filesOnBranch, git, gitServerForFile } from './git-server.js';

const server = gitServerForFile();
let counter = 0;

const seed = { 'README.md': '# Demo\n', 'src/app.ts': 'export const port = 3000;\n', 'docs/guide/intro.md': 'Hello\n' };
const repo = () => {
  const name = `repo-${++counter}`;
  createRepo(server, name, seed);
  return name;
};
const bare = (name: string) => `${server.root}/${name}.git`;

describe.each(backends)('clone, edit and push on %s', (_, make) => {
  let made: Made;
  afterEach(async () => {
    await made?.cleanup();
  });

  it('clones with progress, makes the clone the first snapshot, and pushes the edits as a branch git sees', async () => {
    made = await make();
    const name = repo();
    const phases = new Set<string>();
    const cloned = await made.ws.git.clone({
      url: `${server.url}/${name}.git`,
      onProgress: (e) => {
        phases.add(e.phase);
      },
    });
    expect(cloned).toMatchObject({ ok: true, tool: 'git_clone', result: { ref: 'main', files: 3, shallow: false } });
    if (!cloned.ok) return;
    expect(cloned.result.commit).toBe(git(bare(name), 'rev-parse', 'main').trim());
    expect(await workspaceFiles(made)).toEqual(seed);
    await expect.poll(() => phases.has('Writing files')).toBe(true);
    const snaps = await made.ws.call<{ snapshots: Array<{ id: string; message: string }> }>('list_snapshots', {});
    expect(snaps.ok && snaps.result.snapshots).toEqual([
      expect.objectContaining({ id: cloned.result.commit.slice(0, 12), message: 'initial commit' }),
    ]);
    // the clone went through the one write path: it is a change in the log, like a tool's, with its text
    const [logged] = made.ws.changes.list();
    expect(logged).toMatchObject({
      tool: 'git_clone',
      files: expect.arrayContaining([expect.objectContaining({ path: 'src/app.ts', status: 'added' })]),
    });
    expect(made.ws.changes.get(logged!.id)?.unified_diff).toContain('+');

    expect((await made.ws.call('edit_file', { path: 'src/app.ts', old_text: '3000', new_text: '8080' })).ok).toBe(true);
    expect((await made.ws.call('write_file', { path: 'src/new.ts', content: 'export {};\n' })).ok).toBe(true);
    expect((await made.ws.call('delete_path', { path: 'docs/guide/intro.md' })).ok).toBe(true);
    const pushed = await made.ws.git.push({ branch: 'agent/work', auth: { token: server.token } });
    expect(pushed).toMatchObject({ ok: true, result: { branch: 'agent/work', squashed: false } });
    expect(filesOnBranch(server, name, 'agent/work')).toEqual(await workspaceFiles(made));
    // every snapshot went: the clone's commit plus one per change, and the server's repository is sound
    expect(git(bare(name), 'rev-list', '--count', 'agent/work').trim()).toBe('4');
    expect(git(bare(name), 'merge-base', 'main', 'agent/work').trim()).toBe(cloned.result.commit);
    git(bare(name), 'fsck', '--strict');
  });

  it('keeps an executable file executable through the clone, an edit, a rescan and the push', async () => {
    made = await make();
    const name = `repo-${++counter}`;
    createRepo(server, name, { ...seed, 'bin/run.sh': '#!/bin/sh\necho one\n' }, 'main', ['bin/run.sh']);
    expect((await made.ws.git.clone({ url: `${server.url}/${name}.git` })).ok).toBe(true);
    expect(((await made.fs.stat(`${made.root}/bin/run.sh`)).mode & 0o111) !== 0).toBe(true);
    expect((await made.ws.call('edit_file', { path: 'bin/run.sh', old_text: 'one', new_text: 'two' })).ok).toBe(true);
    await made.ws.rescan();
    expect((await made.ws.git.push({ branch: 'agent/modes', auth: { token: server.token } })).ok).toBe(true);
    const modes = git(bare(name), 'ls-tree', '-r', 'agent/modes')
      .trim()
      .split('\n')
      .map((line) => `${line.split(/\s+/)[0]} ${line.split('\t')[1]}`);
    expect(modes.sort()).toEqual([
      '100644 README.md',
      '100644 docs/guide/intro.md',
      '100644 src/app.ts',
      '100755 bin/run.sh',
    ]);
  });

  it('pushes one squashed commit on top of the cloned commit, and a second squash on top of the first', async () => {
    made = await make();
    const name = repo();
    await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    await made.ws.call('write_file', { path: 'a.txt', content: 'one\n' });
    await made.ws.call('write_file', { path: 'a.txt', content: 'two\n' });
    const first = await made.ws.git.push({
      branch: 'review',
      squash: true,
      message: 'Agent work',
      auth: { token: server.token },
    });
    expect(first).toMatchObject({ ok: true, result: { squashed: true } });
    expect(git(bare(name), 'log', '--format=%s', 'review').trim().split('\n')).toEqual([
      'Agent work',
      'initial commit',
    ]);
    await made.ws.call('write_file', { path: 'b.txt', content: 'three\n' });
    expect((await made.ws.git.push({ branch: 'review', squash: true, auth: { token: server.token } })).ok).toBe(true);
    expect(git(bare(name), 'rev-list', '--count', 'review').trim()).toBe('3');
    expect(filesOnBranch(server, name, 'review')).toEqual(await workspaceFiles(made));
  });

  it('refuses a non-fast-forward push with STALE_FILE and leaves the remote branch as it was', async () => {
    made = await make();
    const name = repo();
    await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    const other = createRepoClone(name);
    git(other, 'commit', '-q', '--allow-empty', '-m', 'someone else');
    git(other, 'push', '-q', 'origin', 'main');
    const before = git(bare(name), 'rev-parse', 'main');
    await made.ws.call('write_file', { path: 'mine.txt', content: 'mine\n' });
    const pushed = await made.ws.git.push({ branch: 'main', auth: { token: server.token } });
    expect(pushed).toMatchObject({ ok: false, tool: 'git_push', error: { code: 'STALE_FILE' } });
    expect(!pushed.ok && pushed.error.hint).toMatch(/pull/i);
    expect(git(bare(name), 'rev-parse', 'main')).toBe(before);
  });

  it('refuses a wrong token with PERMISSION_DENIED, never echoing it, and pushes nothing', async () => {
    made = await make();
    const name = repo();
    await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    await made.ws.call('write_file', { path: 'x.txt', content: 'x\n' });
    const secret = 'wrong-token-7731';
    for (const attempt of [
      made.ws.git.push({ branch: 'agent/x', auth: { token: secret } }),
      made.ws.git.push({ branch: 'agent/x', auth: async () => ({ token: secret }) }),
      made.ws.git.push({ branch: 'agent/x', url: `http://user:${secret}@${server.url.slice(7)}/${name}.git` }),
      made.ws.git.push({ branch: 'agent/x' }),
    ]) {
      const result = await attempt;
      expect(result).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
      expect(JSON.stringify(result)).not.toContain(secret);
    }
    expect(git(bare(name), 'branch', '--list', 'agent/x').trim()).toBe('');
  });

  it('never writes a credential into the backend, and strips it from the URL it remembers', async () => {
    made = await make();
    const name = repo();
    const cloned = await made.ws.git.clone({
      url: `http://someone:${server.token}@${server.url.slice(7)}/${name}.git`,
    });
    expect(cloned).toMatchObject({ ok: true, result: { url: `${server.url}/${name}.git` } });
    await made.ws.call('write_file', { path: 'y.txt', content: 'y\n' });
    expect((await made.ws.git.push({ branch: 'agent/y', auth: () => ({ token: server.token }) })).ok).toBe(true);
    const stored = JSON.stringify(await everything(made.fs, made.root));
    expect(stored).not.toContain(server.token);
    expect(stored).not.toContain(Buffer.from(`x-access-token:${server.token}`).toString('base64'));
    expect(stored).toContain(`url = ${server.url}/${name}.git`);
  });

  it('refuses to clone into a workspace with files, a missing repository or ref, or an unreachable server, changing nothing', async () => {
    made = await make();
    const name = repo();
    const empty = await made.ws.call('list_snapshots', {});
    expect(empty.ok).toBe(true);
    const before = await everything(made.fs, made.root);
    const cases: Array<[Promise<{ ok: boolean }>, string]> = [
      [made.ws.git.clone({ url: `${server.url}/no-such-repo.git` }), 'NOT_FOUND'],
      [made.ws.git.clone({ url: `${server.url}/${name}.git`, ref: 'no-such-branch' }), 'NOT_FOUND'],
      [made.ws.git.clone({ url: 'http://127.0.0.1:9/nothing.git' }), 'IO_ERROR'],
      [made.ws.git.clone({ url: 'ssh://example.com/x.git' }), 'INVALID_ARGUMENTS'],
      [made.ws.git.clone({ url: `${server.url}/${name}.git`, depth: 0 }), 'INVALID_ARGUMENTS'],
    ];
    for (const [attempt, code] of cases) expect(await attempt).toMatchObject({ ok: false, error: { code } });
    // the refusal says why the server could not be reached, not only that it could not
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(await made.ws.git.clone({ url: `http://127.0.0.1:${port}/nothing.git` })).toMatchObject({
      ok: false,
      error: { code: 'IO_ERROR', message: expect.stringContaining('(network error: ECONNREFUSED)') },
    });
    expect(await everything(made.fs, made.root)).toEqual(before);
    await made.ws.call('write_file', { path: 'keep.txt', content: 'mine\n' });
    const withFile = await everything(made.fs, made.root);
    expect(await made.ws.git.clone({ url: `${server.url}/${name}.git` })).toMatchObject({
      ok: false,
      error: { code: 'DIRECTORY_NOT_EMPTY' },
    });
    expect(await everything(made.fs, made.root)).toEqual(withFile);
  });

  it('clones one commit with depth 1, and a push from it is still a fast-forward', async () => {
    made = await make();
    const name = repo();
    const work = createRepoClone(name);
    git(work, 'commit', '-q', '--allow-empty', '-m', 'second');
    git(work, 'push', '-q', 'origin', 'main');
    const cloned = await made.ws.git.clone({ url: `${server.url}/${name}.git`, depth: 1 });
    expect(cloned).toMatchObject({ ok: true, result: { shallow: true } });
    const snaps = await made.ws.call<{ snapshots: unknown[] }>('list_snapshots', {});
    expect(snaps.ok && snaps.result.snapshots).toHaveLength(1);
    await made.ws.call('write_file', { path: 'z.txt', content: 'z\n' });
    expect((await made.ws.git.push({ branch: 'main', auth: { token: server.token } })).ok).toBe(true);
    expect(filesOnBranch(server, name, 'main')).toEqual(await workspaceFiles(made));
  });

  it('keeps files the repository tracks despite its .gitignore, and files over the size cap, through a reopen and a push', async () => {
    made = await make();
    const name = repo();
    const work = createRepoClone(name);
    writeFileSync(join(work, '.gitignore'), '*.log\n');
    writeFileSync(join(work, 'kept.log'), 'tracked although ignored\n');
    writeFileSync(join(work, 'big.txt'), 'b'.repeat(6 * 1024 * 1024));
    git(work, 'add', '-f', '.gitignore', 'kept.log', 'big.txt');
    git(work, 'commit', '-q', '-m', 'ignored but tracked');
    git(work, 'push', '-q', 'origin', 'main');
    const cloned = await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    expect(cloned.ok, JSON.stringify(cloned)).toBe(true);
    await made.ws.close();
    // a workspace opened afresh on the same files scans everything again
    const reopened = createWorkspace({ fs: made.fs, root: made.root });
    expect((await reopened.call('write_file', { path: 'fresh.log', content: 'untracked\n' })).ok).toBe(true);
    expect((await reopened.call('edit_file', { path: 'src/app.ts', old_text: '3000', new_text: '8080' })).ok).toBe(
      true,
    );
    expect((await reopened.git.push({ branch: 'agent/keep', auth: { token: server.token } })).ok).toBe(true);
    const pushed = filesOnBranch(server, name, 'agent/keep');
    expect(Object.keys(pushed).sort()).toEqual([
      '.gitignore',
      'README.md',
      'big.txt',
      'docs/guide/intro.md',
      'kept.log',
      'src/app.ts',
    ]);
    expect(pushed['src/app.ts']).toBe('export const port = 8080;\n');
    expect(pushed['big.txt']).toHaveLength(6 * 1024 * 1024);
    await reopened.close();
  });
});

function createRepoClone(name: string): string {
  const dir = `${server.root}/work-${name}-${++counter}`;
  git(server.root, 'clone', '-q', bare(name), dir);
  return dir;
}
