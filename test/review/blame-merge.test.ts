import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Workspace } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((d) => rm(d, { recursive: true, force: true }))));

/** An edit of one line by `actor` with call id `call`; answers the change id. */
async function edit(ws: Workspace, path: string, n: number, actor: string, call: string): Promise<string> {
  await ws.call('read_file', { path });
  const env = await ws.call(
    'edit_file',
    { path, old_text: `line ${n}\n`, new_text: `${actor} wrote ${n}\n` },
    { actor, call_id: call },
  );
  if (!env.ok) throw new Error(env.error.message);
  return env.result.change_id;
}

/** Blame as one [change_id, actor, call_id, fork] per line. */
async function owners(ws: Workspace, path: string) {
  const blamed = await ws.blame(path);
  if (!blamed.ok) throw new Error(blamed.error.message);
  return blamed.result.ranges.flatMap((r) =>
    Array.from({ length: r.end_line - r.start_line + 1 }, () => [r.change_id, r.actor, r.call_id, r.fork ?? null]),
  );
}

const backends: Array<{ name: string; open: () => Promise<{ ws: Workspace; reopen: () => Workspace }> }> = [
  {
    name: 'memory',
    open: async () => {
      const fs = createMemoryFs({ 'f.txt': numbered(20) });
      return { ws: createWorkspace({ fs }), reopen: () => createWorkspace({ fs }) };
    },
  },
  {
    name: 'node',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sandpit-blame-merge-'));
      folders.push(dir);
      await writeFile(join(dir, 'f.txt'), numbered(20));
      return { ws: openNodeWorkspace(dir), reopen: () => openNodeWorkspace(dir) };
    },
  },
];

for (const backend of backends) {
  describe(`blame after a merge (${backend.name})`, () => {
    it("keeps the fork's authors on the lines it brought, each side's on a file both edited, and undo gives the old back", async () => {
      const { ws, reopen } = await backend.open();
      const p1 = await edit(ws, 'f.txt', 2, 'alice', 'p1');
      const fork = await ws.fork({ name: 'agent-a' });
      const forkId = fork.forkInfo.id;
      const a1 = await edit(fork, 'f.txt', 10, 'agent:a', 'a1');
      const a2 = await edit(fork, 'f.txt', 11, 'agent:b', 'a2');
      const made = await fork.call(
        'write_file',
        { path: 'new.txt', content: 'one\ntwo\n' },
        { actor: 'agent:a', call_id: 'a3' },
      );
      if (!made.ok) throw new Error(made.error.message);
      // a line changed in the fork behind its tools' back: nobody the fork knows wrote it
      const inFork = `${fork.root === '/' ? '' : fork.root}/f.txt`;
      const forkText = new TextDecoder().decode(await fork.fs.readFile(inFork));
      await fork.fs.writeFile(inFork, new TextEncoder().encode(forkText.replace('line 15\n', 'by hand 15\n')));
      await fork.rescan();
      // the parent moved on in the same file, in another hunk
      const p2 = await edit(ws, 'f.txt', 18, 'bob', 'p2');
      const before = await owners(ws, 'f.txt');

      const merged = await ws.merge(fork, {});
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      const expected = Array.from({ length: 20 }, (): Array<string | null> => [null, null, null, null]);
      expected[1] = [p1, 'alice', 'p1', null];
      expected[9] = [a1, 'agent:a', 'a1', forkId];
      expected[10] = [a2, 'agent:b', 'a2', forkId];
      expected[14] = [merged.result.change_id, null, null, null];
      expected[17] = [p2, 'bob', 'p2', null];
      expect(await owners(ws, 'f.txt')).toEqual(expected);
      expect(await owners(ws, 'new.txt')).toEqual([
        [made.result.change_id, 'agent:a', 'a3', forkId],
        [made.result.change_id, 'agent:a', 'a3', forkId],
      ]);
      const blamed = await ws.blame('f.txt');
      expect(blamed.ok && blamed.result.ranges.find((r) => r.start_line === 10)).toMatchObject({ tool: 'edit_file' });

      // a later process reads the same attribution back from the persisted log
      await ws.close();
      const again = reopen();
      expect(await owners(again, 'f.txt')).toEqual(expected);

      // undo of the merge: the merged lines go, the others keep their authors
      const undone = await again.call('undo', {});
      if (!undone.ok) throw new Error(undone.error.message);
      expect(await owners(again, 'f.txt')).toEqual(before);
      await again.close();
    });

    it('forks of forks: lines keep the inner fork and its change through two merges', async () => {
      const { ws } = await backend.open();
      const outer = await ws.fork({ name: 'outer' });
      const inner = await outer.fork({ name: 'inner' });
      const c1 = await edit(inner, 'f.txt', 5, 'carol', 'c1');
      const innerMerge = await outer.merge(inner);
      if (!innerMerge.ok) throw new Error(JSON.stringify(innerMerge.error));
      const d1 = await edit(outer, 'f.txt', 7, 'dave', 'd1');
      const merged = await ws.merge(outer);
      if (!merged.ok) throw new Error(JSON.stringify(merged.error));
      const got = await owners(ws, 'f.txt');
      expect(got[4]).toEqual([c1, 'carol', 'c1', `${outer.forkInfo.id}/${inner.forkInfo.id}`]);
      expect(got[6]).toEqual([d1, 'dave', 'd1', outer.forkInfo.id]);
      expect(got.filter((o) => o[0] !== null)).toHaveLength(2);
      // in the outer fork, the inner fork's line names the inner fork
      expect((await owners(outer, 'f.txt'))[4]).toEqual([c1, 'carol', 'c1', inner.forkInfo.id]);
      await ws.close();
    });
  });
}
