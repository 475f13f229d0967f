import { describe, expect, it } from 'vitest';
import { createMemoryFs, type WorkspaceFs } from '../../src/index.js';
import { comparePaths, compileGlob, staticBase } from '../../src/search/glob.js';
import { isIgnored, parseGitignore } from '../../src/search/ignore.js';
import { walk, walkRuns, type Unreadable, type WalkOptions } from '../../src/search/walk.js';
import { PathResolver } from '../../src/workspace/paths.js';

async function collect(fs: WorkspaceFs, options: WalkOptions = {}, start = '') {
  const paths = new PathResolver(fs, '/ws');
  const out: string[] = [];
  for await (const e of walk(fs, paths, { rel: start, realRel: start }, options))
    out.push(e.type === 'dir' ? `${e.rel}/` : e.rel);
  return out;
}

const names = ['a', 'a-b', 'a.b', 'a/b', 'a/b/c', 'ab', 'B', 'a/B', 'é', 'z', 'a/a-', 'a/a/'];

/** `fs` whose listing of `failing` fails with `code`, as a damaged or unreadable folder would. */
function withBadFolder(fs: WorkspaceFs, failing: string, code: string): WorkspaceFs {
  const fail = () => Promise.reject(Object.assign(new Error(`${code}: readdir failed`), { code }));
  return {
    ...fs,
    readdir: (path) => (path === failing ? fail() : fs.readdir(path)),
    readdirTypes: (path) => (path === failing ? fail() : fs.readdirTypes!(path)),
  } as WorkspaceFs;
}

describe('walk', () => {
  it('skips a folder it may not read but reports one that fails with EIO', async () => {
    const fs = createMemoryFs({ '/ws/a/x': '', '/ws/bad/y': '', '/ws/z': '' });
    expect(await collect(withBadFolder(fs, '/ws/bad', 'EACCES'))).toEqual(['a/x', 'z']);
    await expect(collect(withBadFolder(fs, '/ws/bad', 'EIO'))).rejects.toMatchObject({ code: 'EIO' });
  });

  it('orders paths component by component, as a depth-first walk of sorted names', async () => {
    const sorted = [...names].sort(comparePaths);
    const byParts = [...names].sort((x, y) => {
      const a = x.split('/');
      const b = y.split('/');
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
      return a.length - b.length;
    });
    expect(sorted).toEqual(byParts);
    const fs = createMemoryFs({
      '/ws/a/x': '',
      '/ws/a-b/x': '',
      '/ws/a.b': '',
      '/ws/ab/x': '',
      '/ws/B': '',
      '/ws/é/x': '',
    });
    const walked = await collect(fs);
    expect(walked).toEqual(['B', 'a/x', 'a-b/x', 'a.b', 'ab/x', 'é/x']);
    expect([...walked].sort(comparePaths)).toEqual(walked);
  });

  it('gives the same walk without the readdirTypes fast path', async () => {
    const seed = {
      '/ws/src/a.ts': '',
      '/ws/src/deep/b.ts': '',
      '/ws/.hidden/c': '',
      '/ws/node_modules/m/i.js': '',
      '/ws/z.md': '',
    };
    const fast = createMemoryFs(seed);
    const slow = createMemoryFs(seed);
    delete (slow as { readdirTypes?: unknown }).readdirTypes;
    for (const options of [
      {},
      { includeHidden: true, dirs: true },
      { buildOutputs: 'list' as const, dirs: true, maxDepth: 2 },
    ]) {
      expect(await collect(slow, options)).toEqual(await collect(fast, options));
    }
    expect(await collect(fast, { dirs: true })).toEqual(['src/', 'src/a.ts', 'src/deep/', 'src/deep/b.ts', 'z.md']);
  });

  it('resumes at a path, pruning whole folders that come before it', async () => {
    const fs = createMemoryFs({ '/ws/a/1': '', '/ws/b/1': '', '/ws/b/2': '', '/ws/b/c/1': '', '/ws/d': '' });
    expect(await collect(fs, { resumeAt: 'b/2' })).toEqual(['b/2', 'b/c/1', 'd']);
    expect(await collect(fs, { resumeAt: 'b/gone' })).toEqual(['d']);
    expect(await collect(fs, { resumeAt: 'a' })).toEqual(['a/1', 'b/1', 'b/2', 'b/c/1', 'd']);
  });

  it('lists no folder a resumed walk prunes, not even ahead of time', async () => {
    const fs = createMemoryFs({
      '/ws/a/1': '',
      '/ws/a/x/1': '',
      '/ws/b/1': '',
      '/ws/b/c/1': '',
      '/ws/b/e/1': '',
      '/ws/d/1': '',
    });
    const listed: string[] = [];
    const counting = {
      ...fs,
      readdirTypes: (path: string) => {
        listed.push(path);
        return fs.readdirTypes!(path);
      },
    } as WorkspaceFs;
    expect(await collect(counting, { resumeAt: 'b/c/1' })).toEqual(['b/c/1', 'b/e/1', 'd/1']);
    // each page of a paged search resumes so: listing the folders before it cost a page as much as the search
    expect(listed.sort()).toEqual(['/ws', '/ws/b', '/ws/b/c', '/ws/b/e', '/ws/d']);
  });

  it('walks wide and deep trees completely (prefetching never loses a folder)', async () => {
    const seed: Record<string, string> = {};
    for (let i = 0; i < 150; i++) seed[`/ws/d${String(i).padStart(3, '0')}/e/f${i}.txt`] = '';
    const out = await collect(createMemoryFs(seed));
    expect(out).toHaveLength(150);
    expect(out[0]).toBe('d000/e/f0.txt');
    expect(out[149]).toBe('d149/e/f149.txt');
  });

  it("gives a folder's entries their folder's path, and a followed link's target none", async () => {
    const fs = createMemoryFs({ '/ws/x.txt': '', '/ws/src/a.ts': '', '/ws/src/b.ts': '', '/ws/src/deep/c.ts': '' });
    await fs.symlink('/ws/src/deep/c.ts', '/ws/src/link.ts');
    const paths = new PathResolver(fs, '/ws');
    const entries = [];
    for await (const e of walk(fs, paths, { rel: '', realRel: '' }, { links: 'follow' })) entries.push(e);
    const byRel = new Map(entries.map((e) => [e.rel, e]));
    // each path is the folder's and the name, as toAbs makes it; a read batching a folder compares the folder by identity
    for (const e of entries) if (e.dir !== undefined) expect(e.abs).toBe(`${e.dir}/${e.name}`);
    expect(byRel.get('x.txt')?.dir).toBe('/ws');
    expect(byRel.get('src/a.ts')?.dir).toBe('/ws/src');
    expect(byRel.get('src/b.ts')?.dir).toBe('/ws/src');
    expect(byRel.get('src/deep/c.ts')?.dir).toBe('/ws/src/deep');
    expect(byRel.get('src/link.ts')).toMatchObject({ abs: '/ws/src/deep/c.ts', dir: undefined });
  });
});

describe('walk in runs', () => {
  /** `fs` whose listings show `special` as a special file (a FIFO, a socket), as the node backend would. */
  function withSpecial(fs: WorkspaceFs, special: string): WorkspaceFs {
    return {
      ...fs,
      readdirTypes: async (path) =>
        (await fs.readdirTypes!(path)).map((d) => (`${path}/${d.name}` === special ? { ...d, type: 'other' } : d)),
    } as WorkspaceFs;
  }

  async function both(fs: WorkspaceFs, options: WalkOptions, most: number) {
    const paths = new PathResolver(fs, '/ws');
    const start = { rel: '', realRel: '' };
    const one: string[] = [];
    const notedOne: Unreadable[] = [];
    const budgetOne = options.budget ? { ...options.budget } : undefined;
    for await (const e of walk(fs, paths, start, { ...options, unreadable: notedOne, budget: budgetOne }))
      one.push(`${e.type}:${e.rel}:${e.abs}`);
    const runs: string[][] = [];
    const noted: Unreadable[] = [];
    const budget = options.budget ? { ...options.budget } : undefined;
    for await (const run of walkRuns(fs, paths, start, { ...options, unreadable: noted, budget }, most))
      runs.push(run.map((e) => `${e.type}:${e.rel}:${e.abs}`));
    expect(runs.flat()).toEqual(one);
    expect(noted).toEqual(notedOne);
    expect(budget?.stoppedAt).toEqual(budgetOne?.stoppedAt);
    for (const run of runs) expect(run.length).toBeGreaterThan(0);
    for (const run of runs) expect(run.length).toBeLessThanOrEqual(most);
    return runs;
  }

  it('yields what the one-by-one walk yields, in the same order, in runs of at most the size asked', async () => {
    const seed: Record<string, string> = { '/ws/.gitignore': 'skip*\n', '/ws/.hidden/x': '' };
    for (let d = 0; d < 4; d++) for (let f = 0; f < 30; f++) seed[`/ws/d${d}/f${String(f).padStart(2, '0')}`] = '';
    seed['/ws/d1/skip-me'] = '';
    seed['/ws/d2/sub/deep'] = '';
    const fs = withSpecial(createMemoryFs(seed), '/ws/d0/f10');
    await fs.symlink('/ws/d3/f00', '/ws/d1/f15-link');
    for (const options of [
      { gitignore: true, links: 'follow' as const, noteSpecial: true },
      { dirs: true, includeHidden: true },
      { resumeAt: 'd1/f20' },
      { budget: { deadline: 0 } },
    ]) {
      for (const most of [1, 7, 32]) await both(fs, options, most);
    }
    const runs = await both(fs, { links: 'follow', noteSpecial: true }, 32);
    // a run ends before the special file is noted and around the followed link, and may span folders
    expect(runs[0]).toHaveLength(10);
    expect(runs.some((r) => r.length === 1 && r[0]!.startsWith('file:d1/f15-link:/ws/d3/f00'))).toBe(true);
  });

  it('notes nothing past the run a consumer stopped after', async () => {
    const seed: Record<string, string> = {};
    for (let f = 0; f < 5; f++) seed[`/ws/a/f${f}`] = '';
    seed['/ws/a/pipe'] = '';
    seed['/ws/a/z'] = '';
    const fs = withSpecial(createMemoryFs(seed), '/ws/a/pipe');
    const noted: Unreadable[] = [];
    const runs = walkRuns(
      fs,
      new PathResolver(fs, '/ws'),
      { rel: '', realRel: '' },
      { noteSpecial: true, unreadable: noted },
      64,
    );
    expect((await runs.next()).value?.map((e: { rel: string }) => e.rel)).toEqual([
      'a/f0',
      'a/f1',
      'a/f2',
      'a/f3',
      'a/f4',
    ]);
    await runs.return(undefined);
    expect(noted).toEqual([]);
  });
});

describe('globs and ignore rules', () => {
  it('matches bare patterns against basenames and slashed ones against paths', async () => {
    expect((await compileGlob('*.ts'))('deep/down/x.ts')).toBe(true);
    expect((await compileGlob('*.ts'))('x.tsx')).toBe(false);
    expect((await compileGlob('src/*.ts'))('src/a.ts')).toBe(true);
    expect((await compileGlob('src/*.ts'))('lib/src/a.ts')).toBe(false);
    expect((await compileGlob('./src/**'))('src/a/b')).toBe(true);
    expect(await staticBase('src/lib/**/*.ts')).toBe('src/lib');
    expect(await staticBase('*.ts')).toBe('');
  });

  it('lets the deepest .gitignore with an opinion decide', async () => {
    const stack = [await parseGitignore('', '*.log\nbuild/\n'), await parseGitignore('pkg', '!keep.log\n')];
    expect(isIgnored(stack, 'a.log', false)).toBe(true);
    expect(isIgnored(stack, 'pkg/keep.log', false)).toBe(false);
    expect(isIgnored(stack, 'pkg/other.log', false)).toBe(true);
    expect(isIgnored(stack, 'build', true)).toBe(true);
    expect(isIgnored(stack, 'build', false)).toBe(false);
    expect(isIgnored(stack, 'pkgx/keep.log', false)).toBe(true);
  });
});
