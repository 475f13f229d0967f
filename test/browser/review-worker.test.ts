import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});

const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const after = before.replace('line 2\n', 'TWO\n').replace('line 10\n', 'TEN\n').replace('line 18\n', 'EIGHTEEN\n');

describe('review and blame across the worker boundary', () => {
  it('lists hunks, holds a rejection for a run, applies it on release with its note, and blames by actor', async () => {
    const ws = await connect({ backend: 'memory', name: uniqueName('review') });
    open.push(ws);
    expect((await ws.call('write_file', { path: 'a.txt', content: before }, { actor: 'alice' })).ok).toBe(true);
    await ws.call('read_file', { path: 'a.txt' });
    const written = await ws.call('write_file', { path: 'a.txt', content: after }, { actor: 'agent:x', call_id: 'c7' });
    expect(written.ok).toBe(true);
    const listed = await ws.review.hunks({ path: 'a.txt', status: 'pending' });
    if (!listed.ok) throw new Error(listed.error.message);
    const edits = listed.result.hunks.filter((h) => !h.created);
    expect(edits.map((h) => h.new_start)).toEqual([2, 10, 18]);

    const release = ws.review.hold();
    const rejected = ws.review.reject([edits[1]!.id], 'ten stays');
    // a call sent after the rejection still sees the file as the run left it: the verdict waits for the hold
    expect(await ws.call('read_file', { path: 'a.txt' })).toMatchObject({ result: { content: after } });
    await release();
    expect(await rejected).toMatchObject({ ok: true, tool: 'review_reject', result: { files: ['a.txt'] } });
    expect(await ws.call('read_file', { path: 'a.txt' })).toMatchObject({
      result: { content: after.replace('TEN\n', 'line 10\n') },
    });
    const notes = ws.review.inbox.take();
    expect(notes.map((n) => n.text)).toEqual([expect.stringContaining('"ten stays"')]);

    const blamed = await ws.blame('a.txt');
    if (!blamed.ok) throw new Error(blamed.error.message);
    expect(blamed.result.ranges.map((r) => [r.start_line, r.end_line, r.actor, r.call_id])).toEqual([
      [1, 1, 'alice', null],
      [2, 2, 'agent:x', 'c7'],
      [3, 9, 'alice', null],
      [10, 10, 'reviewer', null],
      [11, 17, 'alice', null],
      [18, 18, 'agent:x', 'c7'],
      [19, 20, 'alice', null],
    ]);
    expect(await ws.review.reject(['hk_nope'], 'x')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await ws.blame('../x')).toMatchObject({ ok: false, tool: 'blame', error: { code: 'OUTSIDE_WORKSPACE' } });
  });

  it('reads the persisted change log back after a reload on OPFS: blame and hunks of the earlier worker', async () => {
    const name = uniqueName('review-reload');
    const first = await connect({ backend: 'opfs', name });
    await first.call('write_file', { path: 'a.txt', content: before });
    await first.call('read_file', { path: 'a.txt' });
    expect((await first.call('write_file', { path: 'a.txt', content: after }, { actor: 'agent:x' })).ok).toBe(true);
    const ids = await first.review.hunks({ path: 'a.txt' });
    await first.close();

    const second = await connect({ backend: 'opfs', name });
    open.push(second);
    const blamed = await second.blame('a.txt');
    if (!blamed.ok) throw new Error(blamed.error.message);
    expect(blamed.result.ranges.find((r) => r.start_line === 10)).toMatchObject({ actor: 'agent:x', end_line: 10 });
    const again = await second.review.hunks({ path: 'a.txt' });
    expect(again.ok && again.result.hunks.map((h) => h.id)).toEqual(ids.ok && ids.result.hunks.map((h) => h.id));
  });
});
