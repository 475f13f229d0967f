import { describe, expect, it } from 'vitest';
import { TreeCache, type Leaf } from '../../src/snapshots/tree.js';
import type { GitAccess } from '../../src/snapshots/objects.js';

// a tree started empty never reads git: every folder it holds was made in memory
const noGit = {} as GitAccess;
const leaf = (oid: string): Leaf => ({ kind: 'blob', mode: '100644', oid });

describe('the snapshot tree cache', () => {
  it('never puts a path into a folder that was removed or replaced since the last change', async () => {
    const tree = new TreeCache(noGit);
    await tree.set('a/b/f', leaf('1'.repeat(40)));
    await tree.set('a', null);
    await tree.set('a/b/g', leaf('2'.repeat(40)));
    expect([...(await tree.files()).keys()]).toEqual(['a/b/g']);
    await tree.set('a/b', leaf('3'.repeat(40)));
    await tree.set('a/b/h', leaf('4'.repeat(40)));
    await tree.set('a/c', leaf('5'.repeat(40)));
    expect([...(await tree.files()).keys()].sort()).toEqual(['a/b/h', 'a/c']);
  });

  it('marks every folder above a change dirty, new folders under clean ones included', async () => {
    const tree = new TreeCache(noGit);
    await tree.set('x/y/f', leaf('1'.repeat(40)));
    // as after a write: every folder has an id again
    const ids: string[] = [];
    const sink = {
      tree: async () => {
        const id = String(ids.length).padStart(40, '0');
        ids.push(id);
        return id;
      },
    };
    await tree.write(sink as never);
    expect(tree.root.oid).not.toBeNull();
    await tree.set('x/y/new/deeper/f', leaf('2'.repeat(40)));
    expect(tree.root.oid).toBeNull();
    const x = await tree.get('x');
    const y = await tree.get('x/y');
    expect([x && 'oid' in x ? x.oid : 'missing', y && 'oid' in y ? y.oid : 'missing']).toEqual([null, null]);
  });
});
