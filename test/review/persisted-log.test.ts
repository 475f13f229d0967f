import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, type Envelope, type Hunk } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import { ChangeJournal } from '../../src/workspace/review/journal.js';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join('');
const before = numbered(20);
const after = before.replace('line 2\n', 'TWO\n').replace('line 10\n', 'TEN\n').replace('line 18\n', 'EIGHTEEN\n');
const hunksOf = async (env: Promise<Envelope<{ hunks: Hunk[] }>>) => {
  const got = await env;
  if (!got.ok) throw new Error(got.error.message);
  return got.result.hunks;
};
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((d) => rm(d, { recursive: true, force: true }))));

describe('the change log persists for review and blame in a later workspace', () => {
  it('memory backend: a new workspace on the same files blames, lists and rejects what the closed one wrote', async () => {
    const fs = createMemoryFs({ 'a.txt': before });
    const first = createWorkspace({ fs });
    await first.call('read_file', { path: 'a.txt' });
    const write = await first.call(
      'write_file',
      { path: 'a.txt', content: after },
      { actor: 'agent:one', call_id: 'c1' },
    );
    if (!write.ok) throw new Error(write.error.message);
    const ids = (await hunksOf(first.review.hunks())).map((h) => h.id);
    await first.close();

    const second = createWorkspace({ fs });
    const blamed = await second.blame('a.txt');
    if (!blamed.ok) throw new Error(blamed.error.message);
    const at = (n: number) => blamed.result.ranges.find((r) => r.start_line <= n && n <= r.end_line)!;
    expect(at(2)).toEqual({
      start_line: 2,
      end_line: 2,
      change_id: write.result.change_id,
      tool: 'write_file',
      actor: 'agent:one',
      call_id: 'c1',
    });
    expect(at(1)).toMatchObject({ change_id: null, actor: null });
    // the same hunks, with the same ids, are listed and can be rejected
    const hunks = await hunksOf(second.review.hunks());
    expect(hunks.map((h) => h.id)).toEqual(ids);
    const rejected = await second.review.reject([hunks[1]!.id], 'line 10 stays');
    expect(rejected.ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe(after.replace('TEN\n', 'line 10\n'));
    // new change ids go on after the kept ones
    expect(rejected.ok && rejected.result.change_id).not.toBe(write.result.change_id);
    expect(second.changes.list().map((c) => c.id)).toEqual([
      write.result.change_id,
      rejected.ok && rejected.result.change_id,
    ]);
    await second.close();

    // the third workspace sees the verdict, the reviewer's lines, and hands the note to its next agent request
    const third = createWorkspace({ fs });
    const statuses = await hunksOf(third.review.hunks({ change_id: write.result.change_id }));
    expect(statuses.map((h) => h.status)).toEqual(['pending', 'rejected', 'pending']);
    expect(statuses[1]!.reason).toBe('line 10 stays');
    const again = await third.blame('a.txt');
    expect(again.ok && again.result.ranges.find((r) => r.start_line === 10)).toMatchObject({
      actor: 'reviewer',
      tool: 'review_reject',
    });
    await third.review.drain(); // what runAgent does before each model request
    const notes = third.review.inbox.take();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toContain('a.txt line 10');
    expect(notes[0]!.text).toContain('"line 10 stays"');
    await third.close();
    // taken once: a later run does not read it again
    const fourth = createWorkspace({ fs });
    await fourth.review.drain();
    expect(fourth.review.inbox.take()).toEqual([]);
  });

  it('node backend: moves, deletes and many changes to one file read back exactly, stored as their changed lines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sandpit-journal-'));
    folders.push(dir);
    await writeFile(join(dir, 'big.txt'), numbered(2000));
    const ws = openNodeWorkspace(dir);
    await ws.call('read_file', { path: 'big.txt' });
    let text = numbered(2000);
    for (let i = 1; i <= 12; i++) {
      const next = text.replace(`line ${i * 100}\n`, `changed ${i}\n`);
      const edit = await ws.call(
        'edit_file',
        { path: 'big.txt', old_text: `line ${i * 100}\n`, new_text: `changed ${i}\n` },
        { actor: `agent:${i % 2}` },
      );
      expect(edit.ok).toBe(true);
      text = next;
    }
    expect((await ws.call('move_path', { from: 'big.txt', to: 'moved.txt' })).ok).toBe(true);
    expect((await ws.call('write_file', { path: 'gone.txt', content: 'bye\n' })).ok).toBe(true);
    expect((await ws.call('delete_path', { path: 'gone.txt' })).ok).toBe(true);
    const kept = ws.changes.list().map((c) => ws.changes.get(c.id)!.unified_diff);
    const blamed = await ws.blame('moved.txt');
    await ws.close();
    // the first record holds the file; the eleven later edits of it only their lines
    const records = await readdir(join(dir, '.sandpit/review/changes'));
    const sizes = await Promise.all(
      records.sort().map(async (name) => (await readFile(join(dir, '.sandpit/review/changes', name))).length),
    );
    expect(sizes[0]).toBeGreaterThan(15_000);
    expect(Math.max(...sizes.slice(1))).toBeLessThan(1_000);

    const reopened = openNodeWorkspace(dir);
    const again = await reopened.blame('moved.txt');
    expect(again).toEqual(blamed);
    expect(reopened.changes.list().map((c) => reopened.changes.get(c.id)!.unified_diff)).toEqual(kept);
    await reopened.close();
  });

  it('stays within its bounds, and a torn record is skipped', async () => {
    const fs = createMemoryFs({ 'a.txt': numbered(50) });
    const ws = createWorkspace({ fs });
    const log: Array<{ id: string; after: string | null | undefined }> = [];
    const journal = new ChangeJournal(fs, '/.sandpit/bounded', async () => undefined, {
      maxEntries: 8,
      maxBytes: 1 << 20,
    });
    ws.changes.onChange((event) => {
      journal.append(event, ws.changes.summary(event.change_id)!);
      log.push({ id: event.change_id, after: event.files[0]!.after });
    });
    await ws.call('read_file', { path: 'a.txt' });
    for (let i = 1; i <= 20; i++)
      await ws.call('edit_file', { path: 'a.txt', old_text: `line ${i}\n`, new_text: `edit ${i}\n` });
    await journal.flush();
    const names = await fs.readdir('/.sandpit/bounded/changes');
    expect(names.length).toBeLessThanOrEqual(8);
    await fs.writeFile(`/.sandpit/bounded/changes/${'9'.repeat(10)}.json`, new TextEncoder().encode('{"v":1,"id":'));
    const read = await new ChangeJournal(fs, '/.sandpit/bounded', async () => undefined).readNew();
    // the oldest kept record was written again to stand alone: every kept change reads back whole
    expect(read.map((c) => [c.id, c.files[0]!.after])).toEqual(log.slice(-read.length).map((l) => [l.id, l.after]));
    expect(read.at(-1)!.id).toBe(log.at(-1)!.id);
    await ws.close();
  });
});
