import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';

const messages = async (ws: ReturnType<typeof createWorkspace>) => {
  const list = await ws.call<{ snapshots: Array<{ message: string }> }>('list_snapshots', {});
  if (!list.ok) throw new Error(JSON.stringify(list.error));
  return list.result.snapshots.map((s) => s.message);
};

describe('snapshots committed after the call has answered', () => {
  it('answers before the commit, and every later call sees the history of the calls before it', async () => {
    const fs = createMemoryFs({ '/ws/a.txt': 'one\n' });
    const ws = createWorkspace({ fs, root: '/ws', snapshots: { afterReply: true } });
    await ws.snapshots!.open();
    const before = ws.snapshots!.history.chain.length;
    expect((await ws.call('write_file', { path: 'a.txt', content: 'two\n' })).ok).toBe(true);
    // the answer came first: the commit has not landed yet
    expect(ws.snapshots!.history.chain.length).toBe(before);
    expect((await messages(ws))[0]).toMatch(/^write_file: a\.txt/);
    expect((await ws.call('write_file', { path: 'a.txt', content: 'three\n' })).ok).toBe(true);
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile('/ws/a.txt'))).toBe('two\n');
    expect(await messages(ws)).toHaveLength(before + 3);
  });

  it('lands the last commit before rescan() and close() return', async () => {
    const fs = createMemoryFs({ '/ws/a.txt': 'one\n' });
    const ws = createWorkspace({ fs, root: '/ws', snapshots: { afterReply: true } });
    await ws.snapshots!.open();
    const before = ws.snapshots!.history.chain.length;
    expect((await ws.call('edit_file', { path: 'a.txt', old_text: 'one', new_text: 'uno' })).ok).toBe(true);
    expect((await ws.rescan())?.snapshot).toBeNull();
    expect(ws.snapshots!.history.chain.length).toBe(before + 1);
    expect((await ws.call('write_file', { path: 'b.txt', content: 'b\n' })).ok).toBe(true);
    await ws.close();
    expect(ws.snapshots!.history.chain.length).toBe(before + 2);
  });
});
