import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFs } from '../../src/fs/node.js';
import { packObjectSizes } from '../../src/git/pack-sizes.js';
import { backends, everything, type Made } from './workspaces.js';
import { createRepo, git, gitServerForFile } from './git-server.js';
import { leanExecFileSync } from '../support/lean-spawn.js';

const server = gitServerForFile();
let counter = 0;

const bare = (name: string) => `${server.root}/${name}.git`;

/** Run a plumbing command in a bare repository with stdin. */
function plumb(gitdir: string, input: string, ...args: string[]): string {
  return leanExecFileSync('git', [`--git-dir=${gitdir}`, ...args], {
    input,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();
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

/** A repository with a file of zeros that compresses to almost nothing, and a near-copy stored as a delta. */
function bombRepo(bytes: number): string {
  const name = `bomb-${++counter}`;
  const zeros = '\0'.repeat(bytes);
  const pattern = Array.from({ length: 20_000 }, (_, i) => `line ${i} of a file that deltas well\n`).join('');
  createRepo(server, name, {
    'small.txt': 'small\n',
    'zeros.bin': zeros,
    'a.txt': pattern,
    'b.txt': `${pattern}one more line\n`,
  });
  leanExecFileSync('git', [`--git-dir=${bare(name)}`, 'repack', '-adq', '--window=10']);
  return name;
}

describe('pack object sizes', () => {
  it('match git cat-file for every object, deltas included, without inflating them', async () => {
    const name = bombRepo(3 * 1024 * 1024);
    const expected = new Map(
      leanExecFileSync(
        'git',
        [
          `--git-dir=${bare(name)}`,
          'cat-file',
          '--batch-check=%(objectname) %(objectsize) %(deltabase)',
          '--batch-all-objects',
        ],
        { encoding: 'utf8' },
      )
        .trim()
        .split('\n')
        .map((l) => l.split(' '))
        .map(([oid, size]) => [oid!, Number(size)]),
    );
    const deltas = leanExecFileSync(
      'git',
      [`--git-dir=${bare(name)}`, 'cat-file', '--batch-check=%(deltabase)', '--batch-all-objects'],
      { encoding: 'utf8' },
    )
      .split('\n')
      .filter((d) => d && !/^0+$/.test(d));
    expect(deltas.length).toBeGreaterThan(0);
    const sizes = await packObjectSizes(createNodeFs(), bare(name));
    expect(new Map([...sizes].sort())).toEqual(new Map([...expected].sort()));
  });
});

describe.each(backends)('clone limits and clean-up on %s', (_, make) => {
  let made: Made;
  afterEach(async () => {
    await made?.cleanup();
  });

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

  it('skips and lists a file over the largest-file cap, and stops cleanly over the total cap', async () => {
    made = await make();
    const name = bombRepo(8 * 1024 * 1024);
    const capped = await made.ws.git.clone({ url: `${server.url}/${name}.git`, maxFileBytes: 1024 * 1024 });
    expect(capped.ok, JSON.stringify(capped)).toBe(true);
    if (!capped.ok) return;
    expect(capped.result.skipped).toEqual([`zeros.bin (${8 * 1024 * 1024} bytes, over the 1048576-byte file cap)`]);
    const files = await everything(made.fs, made.root);
    expect(files['small.txt']).toBe('small\n');
    expect(files['zeros.bin']).toBeUndefined();
    await made.cleanup();

    made = await make();
    const refused = await made.ws.git.clone({ url: `${server.url}/${name}.git`, maxTotalBytes: 4 * 1024 * 1024 });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.code).toBe('TOO_LARGE');
    expect(await everything(made.fs, made.root)).toEqual({});
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
