import { execFileSync } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { backends, everything, type Made } from './workspaces.js';
import { createRepo, git, startGitServer, type GitServer } from './git-server.js';

let server: GitServer;
let counter = 0;
beforeAll(async () => { server = await startGitServer(); });
afterAll(async () => { await server.close(); });

const bare = (name: string) => `${server.root}/${name}.git`;

/** Run a plumbing command in a bare repository with stdin. */
function plumb(gitdir: string, input: string, ...args: string[]): string {
  return execFileSync('git', [`--git-dir=${gitdir}`, ...args], { input, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' } }).trim();
}

/** A repository whose tree holds `sub/.git/config` (git itself refuses to add one; an attacker writes trees by hand). */
function repoWithNestedGit(): string {
  const name = `nested-${++counter}`;
  createRepo(server, name, { 'README.md': '# x\n' });
  const g = bare(name);
  const blob = plumb(g, '[core]\n\tbare = false\n', 'hash-object', '-w', '--stdin');
  const readme = plumb(g, '', 'rev-parse', 'main:README.md');
  const dotGit = plumb(g, `100644 blob ${blob}\tconfig\n`, 'mktree');
  const sub = plumb(g, `040000 tree ${dotGit}\t.git\n100644 blob ${readme}\tkeep.txt\n`, 'mktree');
  const root = plumb(g, `100644 blob ${readme}\tREADME.md\n040000 tree ${sub}\tsub\n`, 'mktree');
  const parent = plumb(g, '', 'rev-parse', 'main');
  const commit = plumb(g, 'nested .git\n', 'commit-tree', root, '-p', parent);
  plumb(g, '', 'update-ref', 'refs/heads/main', commit);
  return name;
}

describe.each(backends)('clone limits and clean-up on %s', (_, make) => {
  let made: Made;
  afterEach(async () => { await made?.cleanup(); });

  it('skips and lists a nested .git folder instead of failing the clone', async () => {
    made = await make();
    const name = repoWithNestedGit();
    const cloned = await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    expect(cloned.ok, JSON.stringify(cloned)).toBe(true);
    if (!cloned.ok) return;
    expect(cloned.result.skipped).toEqual(['sub/.git/config']);
    const files = await everything(made.fs, made.root);
    expect(files['sub/keep.txt']).toBe('# x\n');
    expect(Object.keys(files).some((p) => p.startsWith('sub/.git'))).toBe(false);
  });

  it('removes everything a failed clone wrote, .sandpit included, so a retry works', async () => {
    made = await make();
    const failed = await made.ws.git.clone({ url: `${server.url}/no-such-repo-${++counter}.git` });
    expect(failed.ok).toBe(false);
    expect(await everything(made.fs, made.root)).toEqual({});
    const name = `retry-${++counter}`;
    createRepo(server, name, { 'a.txt': 'a\n' });
    const retry = await made.ws.git.clone({ url: `${server.url}/${name}.git` });
    expect(retry.ok, JSON.stringify(retry)).toBe(true);
    const snaps = await made.ws.call<{ snapshots: Array<{ message: string }> }>('list_snapshots', {});
    expect(snaps.ok && snaps.result.snapshots.map((s) => s.message)).toEqual(['initial commit']);
  });
});
void git;
