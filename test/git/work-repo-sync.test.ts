import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gitIn, shellGit } from '../shell/git-harness.js';
import { createRepo, git, gitServerForFile } from './git-server.js';
import { backends, onDisk, type Made } from './workspaces.js';

/**
 * Issue 39: the workspace's git verbs keep the clone's `.git` in step. After a pull the shell's
 * git answers as a real clone of the same repository does; after a push `origin/<branch>` is the
 * pushed commit; files the clone left out stay in the index; the Git tab's author reaches
 * `.git/config`. The real git reads each result back.
 */
const server = gitServerForFile();
let counter = 0;
const exported: string[] = [];
afterAll(async () => {
  for (const dir of exported) rmSync(dir, { recursive: true, force: true });
});

const seed = { 'README.md': '# Demo\n', 'src/app.ts': 'export const port = 3000;\n' };
const auth = () => ({ token: server.token });
// the shell's own commits by the clone's author, not the harness's fixed one
const asAuthor = 'unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL; ';

/** A repository on the server and a real clone of it where "someone else" commits and pushes. */
function remote() {
  const name = `sync-${++counter}`;
  const bare = createRepo(server, name, seed);
  const other = join(server.root, `other-${name}`);
  git(server.root, 'clone', '-q', bare, other);
  const theirs = (path: string, content: string, message: string) => {
    git(other, 'pull', '-q', '--ff-only');
    mkdirSync(dirname(join(other, path)), { recursive: true });
    writeFileSync(join(other, path), content);
    git(other, 'add', '-A');
    git(other, 'commit', '-qm', message);
    git(other, 'push', '-q', 'origin', 'main');
  };
  return { name, bare, url: `${server.url}/${name}.git`, theirs };
}

/** What the real git answers in a fresh real clone of `bare`, per command line. */
function realClone(bare: string): (...args: string[]) => string {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-real-clone-'));
  exported.push(dir);
  git(tmpdir(), 'clone', '-q', bare, dir);
  return (...args) => gitIn(dir, ...args).stdout;
}

describe.each(backends)("the git verbs keep the clone's .git in step, on %s", (_, make) => {
  let made: Made;
  afterEach(async () => {
    await made?.cleanup();
  });

  it('a pull of commits made by real git: the shell answers as a real clone does, and git reads the repository', async () => {
    made = await make();
    const r = remote();
    expect((await made.ws.git.clone({ url: r.url })).ok).toBe(true);
    r.theirs('src/app.ts', 'export const port = 8080;\n', 'port from elsewhere');
    r.theirs('docs/new.md', 'new\n', 'a new page');
    const pulled = await made.ws.git.pull({});
    expect(pulled).toMatchObject({ ok: true, result: { status: 'fast_forward' } });

    const real = realClone(r.bare);
    const sh = shellGit({ fs: made.fs, root: made.root });
    for (const line of ['status', 'status -sb', 'status --porcelain', 'log --oneline', 'log --format=%H/%an/%s']) {
      const shell = await sh(`git ${line}`);
      expect({ line, ...shell }).toEqual({ line, stdout: real(...line.split(' ')), stderr: '', exit: 0 });
    }
    const dir = await onDisk(made, exported);
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(dir, 'status', '--porcelain').stdout).toBe('');
    expect(gitIn(dir, 'log', '--format=%H %s').stdout).toBe(git(r.bare, 'log', 'main', '--format=%H %s'));
    expect(gitIn(dir, 'rev-parse', 'origin/main').stdout).toBe(git(r.bare, 'rev-parse', 'main'));
  });

  it("a push sends the shell's commits and moves origin/main; files changed since go in one commit on top", async () => {
    made = await make();
    const r = remote();
    expect((await made.ws.git.clone({ url: r.url, author: { name: 'Pat Person', email: 'pat@example.com' } })).ok).toBe(
      true,
    );
    const sh = shellGit({ fs: made.fs, root: made.root });
    expect((await made.ws.call('edit_file', { path: 'src/app.ts', old_text: '3000', new_text: '9090' })).ok).toBe(true);
    expect(await sh(`${asAuthor}git commit -qam 'port 9090'`)).toMatchObject({ exit: 0, stderr: '' });
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main [ahead 1]\n');
    const mine = (await sh('git rev-parse HEAD')).stdout.trim();

    // every snapshot as its own commit would leave the shell's commit out: refused, nothing sent
    const before = git(r.bare, 'rev-parse', 'main');
    expect(await made.ws.git.push({ auth })).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(git(r.bare, 'rev-parse', 'main')).toBe(before);

    const pushed = await made.ws.git.push({ auth, squash: true, message: 'unused: nothing changed since' });
    expect(pushed).toMatchObject({ ok: true, result: { commit: mine, branch: 'main' } });
    expect(git(r.bare, 'log', '-1', '--format=%H %an %s', 'main')).toBe(`${mine} Pat Person port 9090\n`);
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main\n');

    // a tool's change after the commit: the push makes one commit of it on top, and .git moves there
    expect((await made.ws.call('write_file', { path: 'notes.md', content: 'later\n' })).ok).toBe(true);
    const again = await made.ws.git.push({
      auth,
      squash: true,
      message: 'Notes',
      author: { name: 'Pat Person', email: 'pat@example.com' },
    });
    expect(again.ok).toBe(true);
    expect(git(r.bare, 'log', '--format=%s', 'main')).toBe('Notes\nport 9090\ninitial commit\n');
    expect(await sh('git status')).toMatchObject({
      stdout:
        "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n",
    });
    expect((await sh('git log --format=%s')).stdout).toBe('Notes\nport 9090\ninitial commit\n');

    const dir = await onDisk(made, exported);
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(dir, 'status', '-sb').stdout).toBe('## main...origin/main\n');
    expect(gitIn(dir, 'rev-parse', 'HEAD', 'origin/main').stdout).toBe(git(r.bare, 'rev-parse', 'main', 'main'));
  });

  it('a push of every snapshot fast-forwards .git when the shell made no commit', async () => {
    made = await make();
    const r = remote();
    expect((await made.ws.git.clone({ url: r.url })).ok).toBe(true);
    expect((await made.ws.call('write_file', { path: 'a.txt', content: 'a\n' })).ok).toBe(true);
    const pushed = await made.ws.git.push({ auth });
    expect(pushed.ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main\n');
    expect((await sh('git rev-parse HEAD')).stdout).toBe(git(r.bare, 'rev-parse', 'main'));
  });

  it("a pull merges the shell's own commits (test/git/work-repo-merge.test.ts) and refuses to overwrite what .git stages", async () => {
    made = await make();
    const r = remote();
    expect((await made.ws.git.clone({ url: r.url })).ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    // README.md taken out of the index: a pull changing it would overwrite that, as git pull refuses
    expect(await sh('git rm -q --cached README.md')).toMatchObject({ exit: 0 });
    r.theirs('README.md', '# Changed\n', 'readme elsewhere');
    const refused = await made.ws.git.pull({});
    expect(refused).toMatchObject({ ok: false, error: { code: 'PATCH_CONFLICT', problems: [{ path: 'README.md' }] } });
    expect((await sh('cat README.md; git status --porcelain')).stdout).toBe('# Demo\nD  README.md\n?? README.md\n');

    expect(await sh('git add README.md')).toMatchObject({ exit: 0 });
    await made.ws.call('edit_file', { path: 'src/app.ts', old_text: '3000', new_text: '4000' });
    expect(await sh("git commit -qam 'mine'")).toMatchObject({ exit: 0 });
    expect((await made.ws.git.pull({})).ok).toBe(true);
    // as git pull: a merge commit joins the shell's commit and the pulled one
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main [ahead 2]\n');
    expect((await sh('git log -1 --format=%s')).stdout).toBe(`Merge branch 'main' of ${r.url.slice(0, -4)}\n`);
    expect((await sh('cat README.md')).stdout).toBe('# Changed\n');
    const dir = await onDisk(made, exported);
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(dir, 'rev-parse', 'origin/main').stdout).toBe(git(r.bare, 'rev-parse', 'main'));
  });

  it('files the clone left out stay in the index as skip-worktree: status is clean for both gits', async () => {
    made = await make();
    const name = `skips-${++counter}`;
    const bare = createRepo(server, name, { ...seed, 'big.bin': 'x'.repeat(4096), '.sandpit/theirs.txt': 'mine\n' });
    // a submodule: a gitlink git keeps in the tree, with its .gitmodules
    const work = join(server.root, `work-${name}`);
    git(server.root, 'clone', '-q', bare, work);
    writeFileSync(join(work, '.gitmodules'), '[submodule "lib"]\n\tpath = lib\n\turl = ../lib.git\n');
    git(work, 'update-index', '--add', '--cacheinfo', `160000,${git(work, 'rev-parse', 'HEAD').trim()},lib`);
    git(work, 'add', '.gitmodules');
    git(work, 'commit', '-qm', 'a submodule');
    git(work, 'push', '-q', 'origin', 'main');

    const cloned = await made.ws.git.clone({ url: `${server.url}/${name}.git`, maxFileBytes: 1000 });
    expect(cloned).toMatchObject({
      ok: true,
      result: { skipped: ['.sandpit/theirs.txt', expect.stringMatching(/^big\.bin/)] },
    });
    const sh = shellGit({ fs: made.fs, root: made.root });
    expect(await sh('git status --porcelain')).toMatchObject({ stdout: '', exit: 0 });
    const dir = await onDisk(made, exported);
    expect(gitIn(dir, 'status', '--porcelain')).toMatchObject({ stdout: '', exit: 0 });
    expect(gitIn(dir, 'ls-files', '-v', 'big.bin', '.sandpit/theirs.txt', 'lib').stdout).toBe(
      'S .sandpit/theirs.txt\nS big.bin\nS lib\n',
    );
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });

    // a commit in the shell keeps them: the tree still holds the big file and the submodule
    await made.ws.call('edit_file', { path: 'README.md', old_text: 'Demo', new_text: 'Demo 2' });
    expect(await sh("git commit -qam 'readme'")).toMatchObject({ exit: 0, stderr: '' });
    const after = await onDisk(made, exported);
    expect(gitIn(after, 'ls-tree', '--name-only', 'HEAD').stdout).toBe(
      '.gitmodules\n.sandpit\nREADME.md\nbig.bin\nlib\nsrc\n',
    );
    expect(gitIn(after, 'status', '--porcelain').stdout).toBe('');
  });

  it("the Git tab's author, changed after the clone, is who the shell's next commit is by", async () => {
    made = await make();
    const r = remote();
    expect((await made.ws.git.clone({ url: r.url, author: { name: 'Pat Person', email: 'pat@example.com' } })).ok).toBe(
      true,
    );
    const set = await made.ws.git.setAuthor({ author: { name: 'Sam Other', email: 'sam@example.com' } });
    expect(set).toMatchObject({ ok: true, tool: 'git_config', result: { name: 'Sam Other', changed: true } });
    expect(await made.ws.git.setAuthor({ author: { name: 'Sam Other', email: 'sam@example.com' } })).toMatchObject({
      ok: true,
      result: { changed: false },
    });
    expect(await made.ws.git.setAuthor({ author: { name: 'a\nb', email: '' } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS' },
    });
    const sh = shellGit({ fs: made.fs, root: made.root });
    await made.ws.call('write_file', { path: 'x.txt', content: 'x\n' });
    expect(await sh(`${asAuthor}git add x.txt && git commit -qm x && git log -1 --format='%an <%ae>'`)).toMatchObject({
      stdout: 'Sam Other <sam@example.com>\n',
    });
    const dir = await onDisk(made, exported);
    expect(gitIn(dir, 'config', '--get-all', 'user.name').stdout).toBe('Sam Other\n');
    expect(gitIn(dir, 'config', 'remote.origin.url').stdout).toBe(`${r.url}\n`);
  });
});

describe('setAuthor without a .git', () => {
  it('is NOT_FOUND and writes nothing', async () => {
    const [, make] = backends[0]!;
    const made = await make();
    const set = await made.ws.git.setAuthor({ author: { name: 'Sam', email: '' } });
    expect(set).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await made.fs.readdir('/')).toEqual([]);
  });
});
