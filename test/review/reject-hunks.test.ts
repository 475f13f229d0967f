import { describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace } from '../../src/index.js';

const numbered = (n: number, tag = '') => Array.from({ length: n }, (_, i) => `line ${i + 1}${tag}\n`).join('');

/** A workspace whose `a.txt` got one change with three hunks (lines 2, 10 and 18 rewritten). */
async function threeHunks() {
  const fs = createMemoryFs({ 'a.txt': numbered(20), 'b.txt': 'keep\n' });
  const ws = createWorkspace({ fs });
  const before = numbered(20);
  const after = before
    .replace('line 2\n', 'TWO\n')
    .replace('line 10\n', 'TEN\nTEN and a half\n')
    .replace('line 18\n', '');
  await ws.call('read_file', { path: 'a.txt' });
  const write = await ws.call('write_file', { path: 'a.txt', content: after });
  if (!write.ok) throw new Error(write.error.message);
  const read = async (p: string) => new TextDecoder().decode(await fs.readFile(`/${p}`));
  return { fs, ws, before, after, change: write.result.change_id, read };
}

describe('review by hunk', () => {
  it('gives every hunk of a change an id that is the same when the change is recorded again', async () => {
    const one = await threeHunks();
    const two = await threeHunks();
    const hunks = (await one.ws.review.hunks({ change_id: one.change })) as any;
    expect(hunks.ok).toBe(true);
    expect(hunks.result.hunks.map((h: any) => [h.old_start, h.old_lines, h.new_start, h.new_lines, h.status])).toEqual([
      [2, 1, 2, 1, 'pending'],
      [10, 1, 10, 2, 'pending'],
      [18, 1, 19, 0, 'pending'],
    ]);
    expect(hunks.result.hunks[1].added).toEqual(['TEN', 'TEN and a half']);
    const again = (await two.ws.review.hunks()) as any;
    expect(again.result.hunks.map((h: any) => h.id)).toEqual(hunks.result.hunks.map((h: any) => h.id));
    expect(new Set(hunks.result.hunks.map((h: any) => h.id)).size).toBe(3);
  });

  it('rejecting the middle hunk reverts exactly it as a new change, and the other two stay', async () => {
    const { ws, before, after, read } = await threeHunks();
    const ids = ((await ws.review.hunks()) as any).result.hunks.map((h: any) => h.id);
    const rejected = await ws.review.reject([ids[1]], 'keep line 10 as it was');
    expect(rejected).toMatchObject({ ok: true, tool: 'review_reject', result: { files: ['a.txt'] } });
    const expected = after.replace('TEN\nTEN and a half\n', 'line 10\n');
    expect(await read('a.txt')).toBe(expected);
    expect(expected).not.toBe(before);
    const change = ws.changes.list().at(-1)!;
    expect(change).toMatchObject({ tool: 'review_reject', actor: 'reviewer', added_lines: 1, removed_lines: 2 });
    expect(rejected.ok && rejected.result.change_id).toBe(change.id);
    const statuses = ((await ws.review.hunks({ change_id: ws.changes.list()[0]!.id })) as any).result.hunks;
    expect(statuses.map((h: any) => h.status)).toEqual(['pending', 'rejected', 'pending']);
    expect(statuses[1].reason).toBe('keep line 10 as it was');
    // the reject is a snapshot like any change: undo brings the hunk back
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await read('a.txt')).toBe(after);
  });

  it('tells the agent: the rejection note names the file, the lines and the reason', async () => {
    const { ws } = await threeHunks();
    const ids = ((await ws.review.hunks()) as any).result.hunks.map((h: any) => h.id);
    await ws.review.reject([ids[0], ids[2]], 'do not rename line 2; line 18 stays');
    const notes = ws.review.inbox.take();
    expect(notes).toHaveLength(1);
    expect(notes[0]!.text).toContain('a.txt line 2');
    expect(notes[0]!.text).toContain('a.txt after line 18');
    expect(notes[0]!.text).toContain('"do not rename line 2; line 18 stays"');
    expect(ws.review.inbox.take()).toEqual([]);
  });

  it('finds a hunk after the file moved on elsewhere, and refuses one whose lines changed, changing nothing', async () => {
    const { ws, read } = await threeHunks();
    const ids = ((await ws.review.hunks()) as any).result.hunks.map((h: any) => h.id);
    // the agent edits above the second hunk (shifting it) and rewrites the first hunk's line
    await ws.call('edit_file', { path: 'a.txt', old_text: 'line 1\n', new_text: 'zero\nline 1\n' });
    await ws.call('edit_file', { path: 'a.txt', old_text: 'TWO\n', new_text: 'TWO!\n' });
    const changes = ws.changes.list().length;
    const text = await read('a.txt');
    const refused = await ws.review.reject([ids[0], ids[1]], 'no');
    expect(refused).toMatchObject({ ok: false, tool: 'review_reject', error: { code: 'PATCH_CONFLICT' } });
    expect(!refused.ok && refused.error.problems!.map((p) => p.path)).toEqual([ids[0]]);
    expect(await read('a.txt')).toBe(text);
    expect(ws.changes.list()).toHaveLength(changes);
    const moved = await ws.review.reject([ids[1]], 'no');
    expect(moved.ok).toBe(true);
    expect(await read('a.txt')).toBe(text.replace('TEN\nTEN and a half\n', 'line 10\n'));
  });

  it('answers unknown ids, a second rejection and bad arguments with coded errors, changing nothing', async () => {
    const { ws } = await threeHunks();
    const ids = ((await ws.review.hunks()) as any).result.hunks.map((h: any) => h.id);
    expect(await ws.review.reject(['hk_000000000000'], 'x')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await ws.review.reject([], 'x')).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
    expect(await ws.review.reject([ids[0]], 5 as any)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS' },
    });
    expect((await ws.review.reject([ids[0]], 'x')).ok).toBe(true);
    expect(await ws.review.reject([ids[0]], 'x')).toMatchObject({ ok: false, error: { code: 'PATCH_CONFLICT' } });
    expect(await ws.review.accept([ids[1]])).toEqual({
      ok: true,
      tool: 'review_accept',
      result: { accepted: [ids[1]] },
    });
    const listed = ((await ws.review.hunks({ status: 'accepted' })) as any).result.hunks;
    expect(listed.map((h: any) => h.id)).toEqual([ids[1]]);
  });

  it('rejecting the creation of a file removes it; rejecting a deletion brings it back', async () => {
    const fs = createMemoryFs({ 'gone.txt': 'old\ntext\n' });
    const ws = createWorkspace({ fs, policy: { confirm: async () => true } });
    await ws.call('write_file', { path: 'new.txt', content: 'fresh\n' });
    await ws.call('delete_path', { path: 'gone.txt' });
    const hunks = ((await ws.review.hunks()) as any).result.hunks;
    expect(hunks.map((h: any) => [h.path, h.created ?? false, h.deleted ?? false])).toEqual([
      ['new.txt', true, false],
      ['gone.txt', false, true],
    ]);
    expect(
      (
        await ws.review.reject(
          hunks.map((h: any) => h.id),
          'neither',
        )
      ).ok,
    ).toBe(true);
    expect(await ws.call('exists', { path: 'new.txt' })).toMatchObject({ result: { exists: false } });
    expect(new TextDecoder().decode(await fs.readFile('/gone.txt'))).toBe('old\ntext\n');
  });
});
