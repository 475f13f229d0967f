import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';

/** A real memfs counting readFile calls of `.gitignore` paths. */
function countingIgnoreReads(inner: WorkspaceFs): WorkspaceFs & { ignoreReads: string[] } {
  const out = Object.create(inner) as WorkspaceFs & { ignoreReads: string[] };
  out.ignoreReads = [];
  out.readFile = (path: string) => {
    if (typeof path === 'string' && path.endsWith('/.gitignore')) out.ignoreReads.push(path);
    return inner.readFile(path);
  };
  return out;
}

describe('the first snapshot', () => {
  it('reads only the .gitignore files that exist, and honours them', async () => {
    const seed: Record<string, string> = {
      'keep/sub/.gitignore': '*.log\n',
      'keep/sub/a.log': 'x\n',
      'keep/sub/a.txt': 'a\n',
    };
    for (let i = 0; i < 20; i++) seed[`d${i}/e${i}/f.txt`] = `${i}\n`;
    const fs = countingIgnoreReads(createMemoryFs(seed));
    const ws = createWorkspace({ fs });
    const listed = await ws.call<{ snapshots: unknown[] }>('list_snapshots', {});
    expect(listed.ok).toBe(true);
    // the one that exists is read (for its rules and as a file of the snapshot); no absent one is tried
    expect([...new Set(fs.ignoreReads)]).toEqual(['/keep/sub/.gitignore']);
    const head = ws.snapshots!.tree;
    expect(await head.get('keep/sub/a.txt')).toBeTruthy();
    expect(await head.get('keep/sub/a.log')).toBeFalsy();
    expect(await head.get('d3/e3/f.txt')).toBeTruthy();
  });
});
