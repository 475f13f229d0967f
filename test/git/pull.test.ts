import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, everything, workspaceFiles, type Made } from './workspaces.js';
import { createRepo, filesOnBranch, git, gitServerForFile } from './git-server.js';

const server = gitServerForFile({ authForFetch: true });
let counter = 0;

const seed = { 'a.txt': 'a\n', 'b.txt': 'b\n' };
const auth = () => ({ token: server.token });
// Each pull's envelope is the assertion's message: toMatchObject's diff leaves out the keys it was
// not asked about, so an unexpected error would show its code without its message or hint.

/** A repository on the server, a workspace cloned from it, and a CLI clone for "someone else". */
async function setup(make: () => Promise<Made>) {
  const name = `pull-${++counter}`;
  createRepo(server, name, seed);
  const made = await make();
  const cloned = await made.ws.git.clone({ url: `${server.url}/${name}.git`, auth });
  if (!cloned.ok) throw new Error(JSON.stringify(cloned));
  const other = `${server.root}/other-${name}`;
  git(server.root, 'clone', '-q', `${server.root}/${name}.git`, other);
  const theirs = (path: string, content: string) => {
    git(other, 'pull', '-q', '--ff-only');
    writeFileSync(`${other}/${path}`, content);
    git(other, 'commit', '-q', '-am', `change ${path}`);
    git(other, 'push', '-q', 'origin', 'main');
  };
  return { made, name, theirs };
}

describe.each(backends)('pull on %s', (_, make) => {
  let made: Made | undefined;
  afterEach(async () => {
    await made?.cleanup();
    made = undefined;
  });

  it('needs the token to clone from a private server: a wrong one is PERMISSION_DENIED and changes nothing', async () => {
    createRepo(server, `private-${++counter}`, seed);
    made = await make();
    await made.ws.call('list_snapshots', {});
    const before = await everything(made.fs, made.root);
    const refused = await made.ws.git.clone({
      url: `${server.url}/private-${counter}.git`,
      auth: { token: 'not-the-token' },
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'PERMISSION_DENIED' } });
    expect(JSON.stringify(refused)).not.toContain('not-the-token');
    expect(await everything(made.fs, made.root)).toEqual(before);
  });

  it('fast-forwards when the workspace has no work of its own', async () => {
    const s = await setup(make);
    made = s.made;
    s.theirs('a.txt', 'a changed remotely\n');
    const pulled = await made.ws.git.pull({ auth });
    expect(pulled, JSON.stringify(pulled)).toMatchObject({
      ok: true,
      result: { status: 'fast_forward', files: ['a.txt'] },
    });
    expect(await workspaceFiles(made)).toEqual({ ...seed, 'a.txt': 'a changed remotely\n' });
    // a pull is a change in the log like any other, so a reviewer sees its diff
    const pull = made.ws.changes.list().find((c) => c.tool === 'git_pull');
    expect(pull?.files).toEqual([expect.objectContaining({ path: 'a.txt', status: 'modified' })]);
    expect(made.ws.changes.get(pull!.id)?.unified_diff).toContain('+a changed remotely');
    expect(pulled.ok && pulled.result.commit).toBe(git(`${server.root}/${s.name}.git`, 'rev-parse', 'main').trim());
    expect(await made.ws.git.pull({ auth })).toMatchObject({ ok: true, result: { status: 'up_to_date', files: [] } });
    // the tools see the new content as the latest snapshot: undo goes back to the cloned files
    expect(await made.ws.call('undo', {})).toMatchObject({ ok: true });
    expect(await workspaceFiles(made)).toEqual(seed);
  });

  it('merges when both sides changed different files, and the merge pushes as a fast-forward', async () => {
    const s = await setup(make);
    made = s.made;
    s.theirs('a.txt', 'theirs\n');
    await made.ws.call('write_file', { path: 'b.txt', content: 'mine\n' });
    const pulled = await made.ws.git.pull({ auth });
    expect(pulled, JSON.stringify(pulled)).toMatchObject({ ok: true, result: { status: 'merged', files: ['a.txt'] } });
    expect(await workspaceFiles(made)).toEqual({ 'a.txt': 'theirs\n', 'b.txt': 'mine\n' });
    expect((await made.ws.git.push({ auth })).ok).toBe(true);
    expect(filesOnBranch(server, s.name, 'main')).toEqual(await workspaceFiles(made));
  });

  it('reports the conflicting paths with PATCH_CONFLICT and changes nothing', async () => {
    const s = await setup(make);
    made = s.made;
    s.theirs('a.txt', 'theirs\n');
    await made.ws.call('write_file', { path: 'a.txt', content: 'mine\n' });
    const before = await workspaceFiles(made);
    const snapsBefore = await made.ws.call('list_snapshots', {});
    const pulled = await made.ws.git.pull({ auth });
    expect(pulled, JSON.stringify(pulled)).toMatchObject({
      ok: false,
      tool: 'git_pull',
      error: { code: 'PATCH_CONFLICT', problems: [{ path: 'a.txt' }] },
    });
    expect(await workspaceFiles(made)).toEqual(before);
    expect(await made.ws.call('list_snapshots', {})).toEqual(snapsBefore);
  });

  it("treats a file changed behind the tools' back as a conflict too", async () => {
    const s = await setup(make);
    made = s.made;
    s.theirs('b.txt', 'theirs\n');
    await made.fs.writeFile(`${made.root === '/' ? '' : made.root}/b.txt`, 'edited outside the tools\n');
    const pulled = await made.ws.git.pull({ auth });
    expect(pulled, JSON.stringify(pulled)).toMatchObject({
      ok: false,
      error: { code: 'PATCH_CONFLICT', problems: [{ path: 'b.txt' }] },
    });
    expect((await workspaceFiles(made))['b.txt']).toBe('edited outside the tools\n');
  });
});
