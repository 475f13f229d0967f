import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkspace, type Workspace, type WorkspaceFs } from '../../src/index.js';
import { createNodeFs } from '../../src/node/index.js';
import { leanExecFileSync } from '../support/lean-spawn.js';

const git = (gitdir: string, ...args: string[]) =>
  leanExecFileSync('git', [`--git-dir=${gitdir}`, ...args], {
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() },
  });

let base: string;
afterEach(() => rmSync(base, { recursive: true, force: true }));

function folder(files: Record<string, string>): string {
  base = mkdtempSync(join(tmpdir(), 'sandpit-snap-'));
  const root = join(base, 'ws');
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, '..'), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

async function ok(ws: Workspace, tool: string, args: unknown) {
  const env = await ws.call(tool, args);
  if (!env.ok) throw new Error(JSON.stringify(env.error));
  return env.result as Record<string, any>;
}

/** The real filesystem, counting reads: nothing is faked, only observed. */
function counting(fs: WorkspaceFs): WorkspaceFs & { reads: string[] } {
  const reads: string[] = [];
  return Object.assign(Object.create(null), fs, {
    reads,
    readFile: (path: string) => {
      if (typeof path === 'string') reads.push(path);
      return fs.readFile(path);
    },
    // a snapshot reads a folder's files in one call where the backend can: each name is a read too
    ...(fs.readPlainFiles && {
      readPlainFiles: (base: string, names: readonly string[], max: number) => {
        for (const name of names) reads.push(join(base, name));
        return fs.readPlainFiles!(base, names, max);
      },
    }),
  });
}

describe('the shadow repository, read by the real git CLI', () => {
  it('log, show and ls-tree agree with the snapshot tools, and fsck passes', async () => {
    const files: Record<string, string> = { 'README.md': '# x\n' };
    for (let i = 0; i < 60; i++) files[`src/m${i % 6}/f${i}.ts`] = `export const v${i} = ${i};\n`;
    const root = folder(files);
    const ws = createWorkspace({ fs: createNodeFs(), root });
    await ok(ws, 'write_file', { path: 'src/m1/f1.ts', content: 'changed\n' });
    await ok(ws, 'move_path', { from: 'README.md', to: 'docs/README.md' });
    await ok(ws, 'delete_path', { path: 'src/m2', recursive: true });
    const gitdir = join(root, '.sandpit', 'git');
    const listed = (await ok(ws, 'list_snapshots', {})).snapshots as Array<{ id: string; message: string }>;
    const log = git(gitdir, 'log', '--format=%H %s').trim().split('\n');
    expect(log.map((l) => l.slice(0, 12))).toEqual(listed.map((s) => s.id));
    expect(log.map((l) => l.slice(41))).toEqual(listed.map((s) => s.message));
    expect(git(gitdir, 'log', '-1', '--stat', '--format=%s')).toContain('src/m2/f14.ts');
    expect(git(gitdir, 'show', `${listed[2]!.id}:src/m1/f1.ts`)).toBe('changed\n');
    expect(git(gitdir, 'show', `${listed[3]!.id}:src/m1/f1.ts`)).toBe('export const v1 = 1;\n');
    const lsTree = git(gitdir, 'ls-tree', '-r', '--name-only', 'HEAD').trim().split('\n').sort();
    const onDisk = Object.keys(files)
      .filter((p) => !p.startsWith('src/m2/') && p !== 'README.md')
      .concat('docs/README.md')
      .sort();
    expect(lsTree).toEqual(onDisk);
    expect(git(gitdir, 'show', 'HEAD:src/m0/f0.ts')).toBe(readFileSync(join(root, 'src/m0/f0.ts'), 'utf8'));
    // The first snapshot of 60 files went into a pack; git reads and verifies it.
    expect(readdirSync(join(gitdir, 'objects', 'pack')).some((f) => f.endsWith('.idx'))).toBe(true);
    // An empty folder is kept as an entry pointing at the empty tree, which git accepts.
    mkdirSync(join(root, 'empty', 'inner'), { recursive: true });
    expect((await ws.rescan())?.snapshot).not.toBeNull();
    expect(git(gitdir, 'ls-tree', '-d', '--name-only', 'HEAD', 'empty/')).toBe('empty/inner\n');
    git(gitdir, 'fsck', '--full', '--strict');
  });

  it("keeps a new repository's first snapshot in one pack, however small, and git reads it", async () => {
    const root = folder({ 'a.txt': 'a\n', 'src/b.ts': 'export const b = 1;\n' });
    const ws = createWorkspace({ fs: createNodeFs(), root });
    await ws.snapshots!.open();
    const gitdir = join(root, '.sandpit', 'git');
    const objects = join(gitdir, 'objects');
    expect(readdirSync(objects).filter((d) => d.length === 2)).toEqual([]);
    const pack = readdirSync(join(objects, 'pack')).sort();
    expect(pack).toHaveLength(2);
    expect(pack[0]).toMatch(/^pack-[0-9a-f]{40}\.idx$/);
    expect(git(gitdir, 'count-objects', '-v')).toMatch(/in-pack: 5\n/);
    expect(git(gitdir, 'show', 'HEAD:src/b.ts')).toBe('export const b = 1;\n');
    git(gitdir, 'fsck', '--full', '--strict');
    // the next snapshot's objects are loose, as git's own commits are
    await ok(ws, 'write_file', { path: 'a.txt', content: 'changed\n' });
    expect(readdirSync(objects).filter((d) => d.length === 2).length).toBeGreaterThan(0);
    expect(git(gitdir, 'log', '--format=%s').trim().split('\n')).toEqual(['write_file: a.txt', 'Workspace opened']);
    git(gitdir, 'fsck', '--full', '--strict');
  });

  it('writes the same tree ids as git itself', async () => {
    const files: Record<string, string> = {
      'a.txt': 'a\n',
      'b/c.txt': 'c\n',
      'b-d.txt': 'x\n',
      'b.e/f.txt': 'f\n',
      'é.txt': 'utf8\n',
    };
    for (let i = 0; i < 40; i++) files[`many/${i}.txt`] = `${i}\n`;
    const root = folder(files);
    const ws = createWorkspace({ fs: createNodeFs(), root });
    await ws.snapshots!.open();
    const copy = join(base, 'copy');
    cpSync(root, copy, { recursive: true, filter: (p) => !p.includes('.sandpit') });
    const plain = join(base, 'plain.git');
    leanExecFileSync('git', ['init', '-q', '--bare', plain]);
    leanExecFileSync('git', [`--git-dir=${plain}`, `--work-tree=${copy}`, 'add', '-A'], { cwd: copy });
    const expected = leanExecFileSync('git', [`--git-dir=${plain}`, 'write-tree'], { encoding: 'utf8' }).trim();
    expect(ws.snapshots!.history.head!.tree).toBe(expected);
  });

  it("leaves a user's own .git byte-identical and out of every snapshot", async () => {
    const root = folder({ 'f.txt': '0\n' });
    leanExecFileSync('git', ['init', '-q', root]);
    leanExecFileSync('git', [
      '-C',
      root,
      '-c',
      'user.name=u',
      '-c',
      'user.email=u@x',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'user commit',
    ]);
    const snapshotOf = (dir: string): Record<string, string> => {
      const out: Record<string, string> = {};
      const walk = (d: string) => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          const p = join(d, e.name);
          if (e.isDirectory()) walk(p);
          else out[p] = readFileSync(p).toString('hex');
        }
      };
      walk(dir);
      return out;
    };
    const before = snapshotOf(join(root, '.git'));
    const ws = createWorkspace({ fs: createNodeFs(), root });
    for (let i = 0; i < 25; i++) await ok(ws, 'write_file', { path: `f${i % 4}.txt`, content: `${i}\n` });
    await ok(ws, 'undo', { steps: 3 });
    await ok(ws, 'snapshot', { message: 'by hand' });
    expect(snapshotOf(join(root, '.git'))).toEqual(before);
    expect(git(join(root, '.git'), 'log', '--format=%s')).toBe('user commit\n');
    expect(git(join(root, '.sandpit', 'git'), 'ls-tree', '-r', '--name-only', 'HEAD')).not.toContain('.git/');
    // The user's git does not list Sandpit's history as something to commit.
    expect(leanExecFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' })).not.toContain(
      '.sandpit',
    );
  });

  it('cuts history at the retention limit with a shallow boundary git honours', async () => {
    const root = folder({ 'f.txt': '0\n' });
    const ws = createWorkspace({ fs: createNodeFs(), root, snapshots: { keep: 4 } });
    for (let i = 1; i <= 9; i++) await ok(ws, 'write_file', { path: 'f.txt', content: `${i}\n` });
    const gitdir = join(root, '.sandpit', 'git');
    expect(git(gitdir, 'log', '--format=%s').trim().split('\n')).toHaveLength(4);
    expect(readFileSync(join(gitdir, 'shallow'), 'utf8').trim()).toHaveLength(40);
    git(gitdir, 'fsck');
  });

  it('reopens an existing shadow repository: history, undo and changes made while closed', async () => {
    const root = folder({ 'f.txt': '0\n' });
    const first = createWorkspace({ fs: createNodeFs(), root });
    await ok(first, 'write_file', { path: 'f.txt', content: '1\n' });
    await ok(first, 'write_file', { path: 'f.txt', content: '2\n' });
    writeFileSync(join(root, 'f.txt'), 'edited while closed\n');
    const second = createWorkspace({ fs: createNodeFs(), root });
    const listed = (await ok(second, 'list_snapshots', {})).snapshots as Array<{ message: string }>;
    expect(listed.map((s) => s.message)).toEqual([
      'Changes found when the workspace was opened',
      'write_file: f.txt',
      'write_file: f.txt',
      'Workspace opened',
    ]);
    await ok(second, 'undo', { steps: 2 });
    expect(readFileSync(join(root, 'f.txt'), 'utf8')).toBe('1\n');
  });
});

describe('cost follows the change, not the workspace', () => {
  it('a one-file edit writes one blob, the trees above it and a commit', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++) files[`d${i % 10}/e${i % 7}/f${i}.txt`] = `line ${i}\n`;
    const root = folder(files);
    const ws = createWorkspace({ fs: createNodeFs(), root });
    await ws.snapshots!.open();
    const objects = join(root, '.sandpit', 'git', 'objects');
    const loose = () =>
      readdirSync(objects)
        .filter((d) => d.length === 2)
        .flatMap((d) => readdirSync(join(objects, d)).map((f) => d + f));
    const before = new Set(loose());
    await ok(ws, 'write_file', { path: 'd3/e2/f23.txt', content: 'edited\n' });
    const added = loose().filter((o) => !before.has(o));
    const types = added.map((o) => git(join(root, '.sandpit', 'git'), 'cat-file', '-t', o).trim()).sort();
    expect(types).toEqual(['blob', 'commit', 'tree', 'tree', 'tree']);
  });

  it('rescan re-reads only files whose size or mtime changed', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`d${i % 5}/f${i}.txt`] = `line ${i}\n`;
    const root = folder(files);
    const old = new Date(Date.now() - 3_600_000);
    for (const rel of Object.keys(files)) utimesSync(join(root, rel), old, old);
    const fs = counting(createNodeFs());
    const ws = createWorkspace({ fs, root });
    await ws.snapshots!.open();
    expect(fs.reads.filter((p) => p.endsWith('.txt'))).toHaveLength(200);
    fs.reads.length = 0;
    writeFileSync(join(root, 'd1/f6.txt'), 'changed by hand\n');
    const found = await ws.rescan();
    expect(found?.changed).toEqual(['d1/f6.txt']);
    expect(fs.reads.filter((p) => p.endsWith('.txt'))).toEqual([join(root, 'd1/f6.txt')]);
  });
});
