import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mergeMessage } from '../../src/git/work-merge.js';
import { GIT_ENV, gitIn, shellGit } from '../shell/git-harness.js';
import { createRepo, git, gitServerForFile } from './git-server.js';
import { backends, everything, onDisk, workspaceFiles, type Made } from './workspaces.js';

/**
 * Issue 39: a pull into a `.git` holding the shell's own commits merges them as `git pull` does
 * by default (merge): a merge commit by the workspace's author, parents the shell's branch and the
 * pulled commit, the index and the files as git leaves them. The same scripted history is run
 * through the real git CLI (a clone over the same HTTP server, the same commits with pinned
 * dates), and the two repositories are compared. Where git would merge a file line by line (or
 * stop on a conflict), the pull refuses with nothing changed.
 */
const server = gitServerForFile();
let counter = 0;
const temps: string[] = [];
afterAll(async () => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const run = promisify(execFile);
const AUTHOR = { name: 'Pat Person', email: 'pat@example.com' };
const seed = { 'README.md': '# Demo\n', 'src/app.ts': 'export const port = 3000;\n' };

/** A repository on the server, and someone else's clone that pushes to it. */
function scripted() {
  const name = `merge-${++counter}`;
  const bare = createRepo(server, name, seed);
  const url = `${server.url}/${name}.git`;
  const other = join(server.root, `other-${name}`);
  git(server.root, 'clone', '-q', bare, other);
  const theirs = (path: string, content: string, message: string) => {
    mkdirSync(dirname(join(other, path)), { recursive: true });
    writeFileSync(join(other, path), content);
    git(other, 'add', '-A');
    git(other, 'commit', '-qm', message);
    git(other, 'push', '-q', 'origin', 'main');
  };
  return { url, bare, theirs };
}

/**
 * A real clone of our own over HTTP, for the tests that compare with it (a clone over HTTP is a
 * git process and its server's, from this worker). It talks to the server as the workspace does,
 * so its merge names the same URL; the author goes into its config as `git config` would put it.
 */
async function realClone(url: string) {
  const dir = mkdtempSync(join(tmpdir(), 'sandpit-real-merge-'));
  temps.push(dir);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
  };
  await run('git', ['clone', '-q', '-c', `user.name=${AUTHOR.name}`, '-c', `user.email=${AUTHOR.email}`, url, dir], {
    env,
  });
  return {
    dir,
    write: (path: string, content: string) => writeFileSync(join(dir, path), content),
    /** the same commit the shell makes: the harness's pinned people and dates */
    commit: (message: string) => run('git', ['commit', '-qam', message], { cwd: dir, env: { ...env, ...GIT_ENV } }),
    /** `git pull` with its default made explicit (git 2.33+ asks for one when the branches diverged) */
    pull: () =>
      run('git', ['pull', '--no-rebase'], { cwd: dir, env }).then(
        (r) => ({ ...r, exit: 0 }),
        (e: { stdout: string; stderr: string; code: number }) => ({ stdout: e.stdout, stderr: e.stderr, exit: e.code }),
      ),
  };
}

/** Every file and `.git`'s bytes, without the snapshot store (a refused pull still fetched into it). */
async function kept(made: Made): Promise<Record<string, string>> {
  const all = await everything(made.fs, made.root);
  return Object.fromEntries(Object.entries(all).filter(([k]) => !k.startsWith('.sandpit')));
}

const LINES = [
  'status',
  'status -sb',
  'status --porcelain',
  'log --format=%T/%P/%an/%ae/%cn/%ce/%s',
  'log -1 --format=%s',
];

describe.each(backends)("a pull merges the shell's own commits as git pull does, on %s", (_, make) => {
  let made: Made;
  afterEach(async () => {
    await made?.cleanup();
  });

  it('a merge commit by the workspace author: the shell and the real git answer as a real clone after git pull', async () => {
    made = await make();
    const r = scripted();
    const real = await realClone(r.url);
    expect((await made.ws.git.clone({ url: r.url, author: AUTHOR })).ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    expect((await made.ws.call('write_file', { path: 'src/app.ts', content: 'export const port = 4000;\n' })).ok).toBe(
      true,
    );
    expect(await sh("git commit -qam 'port 4000'")).toMatchObject({ exit: 0, stderr: '' });
    real.write('src/app.ts', 'export const port = 4000;\n');
    await real.commit('port 4000');
    // the same commit on both sides
    expect((await sh('git rev-parse HEAD')).stdout).toBe(gitIn(real.dir, 'rev-parse', 'HEAD').stdout);

    r.theirs('README.md', '# Changed\n', 'readme elsewhere');
    r.theirs('docs/new.md', 'new\n', 'a new page');
    const pulled = await made.ws.git.pull({});
    expect(pulled).toMatchObject({ ok: true, result: { status: 'merged' } });
    expect((await real.pull()).exit).toBe(0);

    for (const line of LINES) {
      const shell = await sh(`git ${line}`);
      expect({ line, ...shell }).toEqual({
        line,
        stdout: gitIn(real.dir, ...line.split(' ')).stdout,
        stderr: '',
        exit: 0,
      });
    }
    expect((await sh('git log -1 --format=%s')).stdout).toBe(`Merge branch 'main' of ${r.url.slice(0, -4)}\n`);
    const files = await workspaceFiles(made);
    for (const [path, text] of Object.entries(files)) expect(text).toBe(readFileSync(join(real.dir, path), 'latin1'));
    expect(Object.keys(files).sort()).toEqual(gitIn(real.dir, 'ls-files').stdout.trim().split('\n').sort());

    const dir = await onDisk(made, temps);
    const both = (...args: string[]) => expect(gitIn(dir, ...args).stdout).toBe(gitIn(real.dir, ...args).stdout);
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    both('status', '--porcelain');
    both('ls-files', '-s');
    both('rev-parse', 'HEAD^1', 'HEAD^2', 'HEAD^{tree}', 'ORIG_HEAD', 'origin/main');
    both('log', '--graph', '--format=%s');
    both('show', '--format=%an <%ae> %cn <%ce>', '--stat', 'HEAD');
  });

  it('up to date when the remote has nothing new: the shell commit stays ahead, as git says', async () => {
    made = await make();
    const r = scripted();
    expect((await made.ws.git.clone({ url: r.url, author: AUTHOR })).ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    await made.ws.call('write_file', { path: 'notes.md', content: 'mine\n' });
    expect(await sh("git add notes.md && git commit -qm 'notes'")).toMatchObject({ exit: 0 });
    const head = (await sh('git rev-parse HEAD')).stdout;
    expect(await made.ws.git.pull({})).toMatchObject({ ok: true, result: { status: 'up_to_date' } });
    expect((await sh('git rev-parse HEAD')).stdout).toBe(head);
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main [ahead 1]\n');
  });

  it('where git would merge a file line by line, or stop on local changes, the pull refuses and changes nothing', async () => {
    made = await make();
    const r = scripted();
    const real = await realClone(r.url);
    expect((await made.ws.git.clone({ url: r.url, author: AUTHOR })).ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    await made.ws.call('write_file', { path: 'src/app.ts', content: 'export const port = 4000;\n' });
    expect(await sh("git commit -qam 'port 4000'")).toMatchObject({ exit: 0 });
    real.write('src/app.ts', 'export const port = 4000;\n');
    await real.commit('port 4000');
    r.theirs('src/app.ts', 'export const port = 8080;\n', 'port elsewhere');

    const before = await kept(made);
    const refused = await made.ws.git.pull({});
    expect(refused).toMatchObject({ ok: false, error: { code: 'PATCH_CONFLICT', problems: [{ path: 'src/app.ts' }] } });
    expect(await kept(made)).toEqual(before);
    // what the real git does there: a conflict it leaves for the user to resolve
    const byGit = await real.pull();
    expect(byGit).toMatchObject({
      exit: 1,
      stdout: expect.stringContaining('CONFLICT (content): Merge conflict in src/app.ts'),
    });
  });

  it('a change not committed in .git, to a file the merge would write: refused with nothing changed, as git refuses', async () => {
    made = await make();
    const r = scripted();
    expect((await made.ws.git.clone({ url: r.url, author: AUTHOR })).ok).toBe(true);
    const sh = shellGit({ fs: made.fs, root: made.root });
    await made.ws.call('write_file', { path: 'notes.md', content: 'mine\n' });
    expect(await sh("git add notes.md && git commit -qm 'notes'")).toMatchObject({ exit: 0 });
    await made.ws.call('write_file', { path: 'README.md', content: '# Mine, not committed\n' });
    r.theirs('README.md', '# Changed\n', 'readme elsewhere');
    const before = await kept(made);
    const refused = await made.ws.git.pull({});
    expect(refused).toMatchObject({ ok: false, error: { code: 'PATCH_CONFLICT', problems: [{ path: 'README.md' }] } });
    expect(await kept(made)).toEqual(before);
  });
});

describe("the merge commit's title", () => {
  it("is git's: the URL without a trailing .git, ' into <branch>' off main and master", () => {
    // as git 2.39 titled the same pulls
    expect(mergeMessage('main', 'file:///tmp/x/remote.git', 'main')).toBe(
      "Merge branch 'main' of file:///tmp/x/remote",
    );
    expect(mergeMessage('feat', '/tmp/x/remote.git/', 'feat')).toBe("Merge branch 'feat' of /tmp/x/remote into feat");
    expect(mergeMessage('master', 'https://example.com/r', 'master')).toBe(
      "Merge branch 'master' of https://example.com/r",
    );
  });
});
