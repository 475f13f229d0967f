import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type WorkspaceFs } from '../../src/index.js';
import { objectId } from '../../src/snapshots/sha1.js';

/** The memory backend with a count of the reads of each path (readFile and readPlainFile). */
function countingFs(seed: Record<string, string>): { fs: WorkspaceFs; reads: Map<string, number> } {
  const inner = createMemoryFs(seed);
  const reads = new Map<string, number>();
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (key === 'readFile' && typeof value === 'function') {
        return (path: string, ...rest: unknown[]) => {
          reads.set(path, (reads.get(path) ?? 0) + 1);
          return value.call(target, path, ...rest);
        };
      }
      // a read through one descriptor (the text tools' and searches') is a read too
      if (key === 'readPlainFile' && typeof value === 'function') {
        return (base: string, rel: string, ...rest: unknown[]) => {
          const path = `${base.endsWith('/') ? base.slice(0, -1) : base}/${rel}`;
          reads.set(path, (reads.get(path) ?? 0) + 1);
          return value.call(target, base, rel, ...rest);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { fs, reads };
}

describe('the bytes a tool wrote stand in for reading the file back', () => {
  it('commits an edit without reading the edited file again', async () => {
    const { fs, reads } = countingFs({ '/ws/a.txt': 'one\ntwo\n' });
    const ws = createWorkspace({ fs, root: '/ws' });
    expect((await ws.call('read_file', { path: 'a.txt' })).ok).toBe(true);
    await ws.snapshots!.open();
    reads.clear();
    expect((await ws.call('edit_file', { path: 'a.txt', old_text: 'two', new_text: 'TWO' })).ok).toBe(true);
    // the edit reads the file once to change it; the snapshot after it reads nothing more
    expect(reads.get('/ws/a.txt')).toBe(1);
    const shown = await ws.call<{ unified_diff: string }>('diff_snapshots', {});
    expect(shown.ok && shown.result.unified_diff).toContain('+TWO');
  });

  it("never stands in for a file changed behind the tools' back before a later commit", async () => {
    const { fs } = countingFs({ '/ws/a.txt': 'aaaa\n' });
    const ws = createWorkspace({ fs, root: '/ws', snapshots: { when: 'manual' } });
    await ws.snapshots!.open();
    expect((await ws.call('write_file', { path: 'a.txt', content: 'bbbb\n' })).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 400));
    // same size, other bytes, written without the tools
    await fs.writeFile('/ws/a.txt', new TextEncoder().encode('cccc\n'));
    expect((await ws.call('snapshot', { message: 'now' })).ok).toBe(true);
    const held = (await ws.snapshots!.tree.files()).get('a.txt');
    expect(held?.oid).toBe(objectId('blob', new TextEncoder().encode('cccc\n')));
  });
});
