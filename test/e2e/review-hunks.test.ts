import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, type Playground } from './playground.js';

/**
 * Issue 35 in the playground: the Review tab lists a change's hunks; rejecting one with a reason
 * reverts just that hunk (the other two stay), the reason waits for the agent as a note, and
 * blame of the open file names who wrote each range.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const after = before.replace('line 2\n', 'TWO\n').replace('line 10\n', 'TEN\n').replace('line 18\n', 'EIGHTEEN\n');

/** A call on the page's worker workspace, naming its actor as an agent run would. */
const agentCall = (tool: string, args: Record<string, unknown>) =>
  pg.page.evaluate(
    ([t, a]) => (window as any).sandpitPlayground.session.workspace.call(t, a, { actor: 'agent:e2e', call_id: 'tc_1' }),
    [tool, args] as const,
  ) as Promise<Record<string, any>>;
const fileText = async () =>
  (
    (await pg.page.evaluate(() =>
      (window as any).sandpitPlayground.session.call('read_file', { path: 'review-me.txt' }),
    )) as Record<string, any>
  ).result.content as string;

describe('review by hunk in the playground', () => {
  it('rejects one hunk with a reason: the file keeps the other two and the agent gets the reason', async () => {
    const { page } = pg;
    expect((await agentCall('write_file', { path: 'review-me.txt', content: before })).ok).toBe(true);
    await agentCall('read_file', { path: 'review-me.txt' });
    expect((await agentCall('write_file', { path: 'review-me.txt', content: after })).ok).toBe(true);
    await page.click('#tab-review');
    const middle = page.locator('#hunks li.hunk', { hasText: 'review-me.txt · lines 10–10' });
    await middle.waitFor();
    expect(await page.locator('#hunks li.hunk', { hasText: 'review-me.txt · lines' }).count()).toBeGreaterThanOrEqual(
      3,
    );
    const id = await middle.getAttribute('data-hunk');
    await middle.locator('input.hunk-reason').fill('keep line 10 as it was');
    await middle.getByRole('button', { name: 'Reject' }).click();
    // the revert is a change of its own (with its own hunk at line 10): wait for this hunk's row to go
    await page.locator(`#hunks li[data-hunk="${id}"]`).waitFor({ state: 'detached' });
    expect(await fileText()).toBe(after.replace('TEN\n', 'line 10\n'));
    const notes = (await page.evaluate(async () => {
      const review = (window as any).sandpitPlayground.session.workspace.review;
      await review.drain();
      return review.inbox.take();
    })) as Array<{ text: string }>;
    expect(notes.map((n) => n.text)).toEqual([expect.stringContaining('"keep line 10 as it was"')]);
    expect(notes[0]!.text).toContain('review-me.txt line 10');

    await page.click('#file-tree >> text=review-me.txt');
    await page.locator('#blame li', { hasText: 'reviewer' }).waitFor();
    const rows = await page.$$eval('#blame li', (items) => items.map((i) => i.textContent));
    expect(rows).toContainEqual(expect.stringMatching(/^2: agent:e2e · write_file · chg_/));
    expect(rows).toContainEqual(expect.stringMatching(/^10: reviewer · review_reject · chg_/));
  });
});
