import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';

describe("snapshots: { when: 'call' } under concurrency", () => {
  it('gives each of 250 concurrent calls its own commit, in the order the calls finished, titled with its own path', async () => {
    for (const afterReply of [false, true]) {
      const fs = createMemoryFs({ '/ws/seed.txt': 'seed\n' });
      const ws = createWorkspace({ fs, root: '/ws', snapshots: { when: 'call', afterReply } });
      const finished: string[] = [];
      const calls = Array.from({ length: 250 }, (_, i) => {
        const path = `d${i % 7}/f${i}.txt`;
        const call =
          i % 5 === 0
            ? ws.call('append_file', { path, content: `${i}\n` })
            : ws.call('write_file', { path, content: `${i}\n` });
        return call.then((r) => {
          expect(r.ok).toBe(true);
          finished.push(path);
        });
      });
      await Promise.all(calls);
      await ws.rescan();
      const chain = ws.snapshots!.history.chain;
      const perCall = chain.filter((s) => s.tool === 'write_file' || s.tool === 'append_file');
      expect(perCall, `afterReply ${afterReply}`).toHaveLength(250);
      for (const s of perCall) {
        expect(s.files_changed).toBe(1);
        expect(s.message).toMatch(/^(write_file|append_file): d\d\/f\d+\.txt$/);
      }
      expect(perCall.map((s) => s.message.split(': ')[1])).toEqual(finished);
    }
  });

  it("names every path, or a count, in a commit that holds several ('batch')", async () => {
    const ws = createWorkspace({ fs: createMemoryFs({}), root: '/ws', snapshots: { when: 'batch' } });
    await Promise.all(
      Array.from({ length: 54 }, (_, i) =>
        ws.call('write_file', { path: `f${String(i).padStart(2, '0')}.txt`, content: 'x' }),
      ),
    );
    const head = ws.snapshots!.history.head!;
    expect(head.files_changed).toBe(54);
    expect(head.message).toBe('batch: f00.txt, f01.txt, f02.txt, f03.txt, f04.txt, and 49 more');
  });
});
