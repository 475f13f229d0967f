import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { gitIn, shellGit } from '../shell/git-harness.js';
import { createRepo, git, gitServerForFile } from './git-server.js';
import { backends, onDisk as onDiskAs, type Made } from './workspaces.js';

/**
 * Issue 39: a clone leaves a real `.git` in the workspace, which the real git CLI reads as its
 * own clone (fsck clean, the remote's history, a clean status) and the shell's git works in.
 */
const server = gitServerForFile();
let counter = 0;
const exported: string[] = [];
afterAll(async () => {
  for (const dir of exported) rmSync(dir, { recursive: true, force: true });
});

const seed = { 'README.md': '# Demo\n', 'src/app.ts': 'export const port = 3000;\n', 'bin/run.sh': '#!/bin/sh\n' };

/** A repository with two commits on main, the second made by a real clone and push. */
function history(): string {
  const name = `dotgit-${++counter}`;
  const bare = createRepo(server, name, seed, 'main', ['bin/run.sh']);
  const work = join(server.root, `work-${name}`);
  git(server.root, 'clone', '-q', bare, work);
  writeFileSync(join(work, 'src/app.ts'), 'export const port = 8080;\n');
  git(work, 'commit', '-qam', 'second: port');
  git(work, 'push', '-q', 'origin', 'main');
  return name;
}

const onDisk = (made: Made) => onDiskAs(made, exported, ['bin/run.sh']);

describe.each(backends)('a clone leaves a .git the real git and the shell read, on %s', (_, make) => {
  let made: Made;
  afterEach(async () => {
    await made?.cleanup();
  });

  it('is a clone the real git takes as its own, holding no credential, and the shell commits in it', async () => {
    made = await make();
    const name = history();
    const bare = join(server.root, `${name}.git`);
    const cloned = await made.ws.git.clone({
      url: `http://someone:${server.token}@${server.url.slice(7)}/${name}.git`,
      author: { name: 'Pat Person', email: 'pat@example.com' },
    });
    expect(cloned.ok, JSON.stringify(cloned)).toBe(true);

    const dir = await onDisk(made);
    const fsck = gitIn(dir, 'fsck', '--strict');
    expect(fsck).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(dir, 'log', '--format=%H %s').stdout).toBe(git(bare, 'log', 'main', '--format=%H %s'));
    expect(gitIn(dir, 'status', '--porcelain').stdout).toBe('');
    expect(gitIn(dir, 'status').stdout).toBe(
      "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n",
    );
    const staged = gitIn(dir, 'ls-files', '-s').stdout;
    const tree = git(bare, 'ls-tree', '-r', 'main').replace(/^(\d+) blob (\w+)\t/gm, '$1 $2 0\t');
    expect(staged).toBe(tree);
    expect(gitIn(dir, 'config', 'remote.origin.url').stdout).toBe(`${server.url}/${name}.git\n`);
    expect(gitIn(dir, 'rev-parse', 'origin/main').stdout).toBe(git(bare, 'rev-parse', 'main'));
    const config = readFileSync(join(dir, '.git/config'), 'utf8');
    expect(config).not.toContain(server.token);
    expect(config).toContain('[user]\n\tname = Pat Person\n\temail = pat@example.com\n');

    // the shell's git on the workspace itself: status, an edit, a commit by the clone's author
    const sh = shellGit({ fs: made.fs, root: made.root });
    const env = 'unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL; ';
    expect(await sh('git status')).toMatchObject({
      exit: 0,
      stdout:
        "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n",
    });
    expect((await sh("sed -i 's/8080/9090/' src/app.ts; git diff --stat")).stdout).toBe(
      ' src/app.ts | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n',
    );
    expect(await sh(`${env}git commit -qam 'third: port'`)).toMatchObject({ exit: 0, stderr: '' });
    expect((await sh('git log --oneline')).stdout.split('\n').filter(Boolean)).toHaveLength(3);
    expect((await sh('git status -sb')).stdout).toBe('## main...origin/main [ahead 1]\n');
    expect((await sh('git log -1 --format="%an <%ae>"')).stdout).toBe('Pat Person <pat@example.com>\n');

    const after = await onDisk(made);
    expect(gitIn(after, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(after, 'log', '-1', '--format=%s %an').stdout).toBe('third: port Pat Person\n');
    expect(gitIn(after, 'status', '--porcelain').stdout).toBe('');
  });

  it('clones one commit with depth 1 as a shallow repository git reads', async () => {
    made = await make();
    const name = history();
    expect((await made.ws.git.clone({ url: `${server.url}/${name}.git`, depth: 1 })).ok).toBe(true);
    const dir = await onDisk(made);
    expect(gitIn(dir, 'fsck', '--strict')).toMatchObject({ exit: 0, stderr: '' });
    expect(gitIn(dir, 'rev-parse', '--is-shallow-repository').stdout).toBe('true\n');
    expect(gitIn(dir, 'log', '--format=%s').stdout).toBe('second: port\n');
    expect(gitIn(dir, 'status', '--porcelain').stdout).toBe('');
    const sh = shellGit({ fs: made.fs, root: made.root });
    expect(await sh('git status --porcelain; git log --oneline')).toMatchObject({ exit: 0, stderr: '' });
    // a commit on top: the walk to the upstream stops there, the missing parent never read
    expect(await sh("echo more >> README.md; git commit -qam 'on top'; git status -sb")).toMatchObject({
      exit: 0,
      stdout: '## main...origin/main [ahead 1]\n',
    });
  });
});
