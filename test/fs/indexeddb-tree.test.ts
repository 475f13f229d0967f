import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { tuneLightningTree } from '../../src/fs/indexeddb/tree.js';
import { createRng } from '../hardening/rng.js';

// lightning-fs's in-memory tree, the part the IndexedDB backend tunes; the rest needs a browser
const CacheFS = createRequire(import.meta.url)('@isomorphic-git/lightning-fs/src/CacheFS.js') as new (
  name: string,
) => Record<string, any>;

const outcome = (run: () => unknown) => {
  try {
    const value = run() as { ino?: unknown } | undefined;
    // inode numbers are compared for uniqueness below, not for equality
    return { value: value && typeof value === 'object' && 'ino' in value ? { ...value, ino: 0, mtimeMs: 0 } : value };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
};

describe("lightning-fs's tree with the IndexedDB backend's tuning", () => {
  // the paths the backend hands it: absolute and canonical (it refuses a move into the moved folder
  // itself, which would make lightning-fs's tree a cycle)
  it.each([1, 2, 3])('answers every operation as the untuned tree does, links included (seed %i)', (seed) => {
    const rng = createRng(seed);
    const plain = new CacheFS('plain');
    const tuned = new CacheFS('tuned');
    tuneLightningTree(tuned);
    for (const tree of [plain, tuned]) tree.activate!();
    const path = () => `/${Array.from({ length: 1 + rng.int(4) }, () => rng.pick(['a', 'b', 'l'])).join('/')}`;
    const inodes = new Set<number>();
    for (let step = 0; step < 1000; step++) {
      const op = rng.pick([
        'mkdir',
        'mkdir',
        'writeStat',
        'rmdir',
        'unlink',
        'rename',
        'symlink',
        'stat',
        'lstat',
        'readdir',
        'readlink',
      ]);
      const args: unknown[] =
        op === 'mkdir'
          ? [path(), { mode: 0o777 }]
          : op === 'writeStat'
            ? [path(), step, { mode: 0o644 }]
            : op === 'rename'
              ? [path(), path()]
              : op === 'symlink'
                ? [rng.pick(['/a', '/b/a', 'a', '../b']), path()]
                : [path()];
      if (op === 'rename' && `${args[1]}/`.startsWith(`${args[0]}/`)) continue;
      const expected = outcome(() => plain[op]!(...args));
      // a move through a link can still fold the untuned tree into a cycle, which its inode visit
      // never leaves: from there on it has no answers to compare with
      if (String(expected.error).includes('Maximum call stack')) break;
      const actual = outcome(() => tuned[op]!(...args));
      expect(actual, `step ${step}: ${op} ${JSON.stringify(args)}`).toEqual(expected);
      if (op === 'mkdir' || op === 'writeStat') {
        const made = outcome(() => tuned.lstat!(args[0]));
        if ('value' in made && expected.error === undefined) {
          const ino = (tuned.lstat!(args[0]) as { ino: number }).ino;
          if (op === 'mkdir') {
            expect(inodes.has(ino), `step ${step}: inode ${ino} handed out twice`).toBe(false);
            inodes.add(ino);
          }
        }
      }
    }
  });

  it('hands out inode numbers without visiting the tree, and starts again from the tree after a reload', () => {
    const tuned = new CacheFS('count');
    tuneLightningTree(tuned);
    tuned.activate!();
    let visits = 0;
    const maxInode = tuned._maxInode!.bind(tuned);
    tuned._maxInode = (map: unknown) => {
      visits++;
      return maxInode(map);
    };
    let dir = '';
    for (let i = 0; i < 300; i++) tuned.mkdir!((dir += '/d'), { mode: 0o777 });
    // the first number visits the tree (the root alone then), none after it does
    expect(visits).toBeLessThanOrEqual(2);
    const deepest = (tuned.lstat!(dir) as { ino: number }).ino;
    expect(deepest).toBe(300);
    const saved = tuned._root!.get('/');
    tuned.deactivate!();
    tuned.activate!(new Map([['/', saved]]));
    visits = 0;
    tuned.mkdir!(`${dir}/e`, { mode: 0o777 });
    expect((tuned.lstat!(`${dir}/e`) as { ino: number }).ino).toBe(301);
    expect(visits).toBeGreaterThan(0);
  });
});
