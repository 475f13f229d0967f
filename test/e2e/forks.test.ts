import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { startPlayground, type Playground } from './playground.js';
import { callTool } from './preview-steps.js';

/**
 * Issue 35's playground flow on one page: fork the workspace twice, run the Agent tab (the
 * scripted model server) in each fork, compare their diffs side by side, merge one cleanly (one
 * change in Review), meet the other's conflict (paths and regions shown, nothing changed), drop it.
 *
 * And, first, on the same page (a file and a page of its own cost about 3 CPU-seconds): the Review
 * tab lists a change's hunks; rejecting one with a reason reverts just that hunk (the other two
 * stay), the reason waits for the agent as a note, and blame of the open file names who wrote each
 * range. The fork steps start from whatever files are there, so they run the same after it or alone.
 */
const KEY = 'sk-e2e-forks';
let pg: Playground;
let model: ModelServer;
beforeAll(async () => {
  const writes = (content: string, extra: Record<string, string> = {}) => [
    {
      calls: Object.entries({ 'greet.txt': content, ...extra }).map(([path, text]) => ({
        name: 'write_file',
        args: { path, content: text },
      })),
    },
    { text: 'Done.' },
  ];
  // The morning run's first answer waits until the evening run has asked too: the runs go at once.
  const [first, ...rest] = writes('good morning\nworld\n');
  const eveningAsked = async () => {
    while (model.requestsFor('fork-evening').length === 0) await new Promise((r) => setTimeout(r, 20));
  };
  model = await startModelServer(
    {
      'fork-morning': [{ ...first!, waitFor: eveningAsked }, ...rest],
      'fork-evening': writes('good evening\nworld\n', { 'extra.txt': 'only in the evening fork\n' }),
    },
    { apiKey: KEY },
  );
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await model?.stop();
});

const page = () => pg.page;
const readText = async (path: string) => {
  const read = await callTool(page(), 'read_file', { path });
  return read.ok ? (read.result.content as string) : (read.error.code as string);
};
const status = () => page().textContent('#status');
async function makeFork(name: string): Promise<void> {
  await page().click('#tab-forks');
  await page().fill('#fork-name', name);
  await page().click('#fork-make');
  await page().waitForSelector(`#fork-list li[data-fork="${name}"]`);
}
async function workIn(name: string): Promise<void> {
  await page().click('#tab-forks');
  await page().click(`#fork-list li[data-fork="${name}"] button[data-act="use"]`);
  await page().waitForFunction((n) => document.getElementById('status')!.textContent!.includes(`fork ${n}`), name);
}
async function backToWorkspace(): Promise<void> {
  await page().click('#tab-forks');
  await page().click('#fork-parent');
  await page().waitForFunction(() => !document.getElementById('status')!.textContent!.includes('fork '));
}
const modelUrl = () => model.url;

const hunksBefore = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join('');
const hunksAfter = hunksBefore
  .replace('line 2\n', 'TWO\n')
  .replace('line 10\n', 'TEN\n')
  .replace('line 18\n', 'EIGHTEEN\n');

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
    expect((await agentCall('write_file', { path: 'review-me.txt', content: hunksBefore })).ok).toBe(true);
    await agentCall('read_file', { path: 'review-me.txt' });
    expect((await agentCall('write_file', { path: 'review-me.txt', content: hunksAfter })).ok).toBe(true);
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
    expect(await fileText()).toBe(hunksAfter.replace('TEN\n', 'line 10\n'));
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

describe('forks in the playground', () => {
  it('two forks, an agent on each at once; the workspace itself stays as it was', async () => {
    expect((await callTool(page(), 'write_file', { path: 'greet.txt', content: 'hello\nworld\n' })).ok).toBe(true);
    await makeFork('morning');
    await makeFork('evening');
    // the Agent tab's endpoint and key; each fork's row names its model
    await page().click('#tab-agent');
    await page().selectOption('#agent-api', 'openai');
    await page().fill('#agent-endpoint', `${modelUrl()}/v1`);
    await page().fill('#agent-key', KEY);
    await page().fill('#agent-model', 'unused');
    await page().click('#tab-forks');
    await page().fill('#fork-list li[data-fork="morning"] input[data-act="model"]', 'fork-morning');
    await page().fill('#fork-list li[data-fork="evening"] input[data-act="model"]', 'fork-evening');
    await page().fill('#fork-agents-task', 'Greet for your time of day.');
    await page().click('#fork-agents-run');
    // both run at once, each in its own column; when both have ended their diffs show side by side
    await page().waitForSelector('#fork-runs section[data-fork="evening"]');
    for (const name of ['morning', 'evening'])
      await page().waitForSelector(
        `#fork-runs section[data-fork="${name}"] .fork-run-status:not([data-state="running"])`,
      );
    expect(
      await page().$$eval('#fork-runs .fork-run-status', (items) => items.map((i) => (i as HTMLElement).dataset.state)),
    ).toEqual(['answered', 'answered']);
    await page().waitForSelector('#fork-compare-view section[data-fork="evening"]');
    await page().waitForSelector('body[data-agent="idle"]');
    expect(await readText('greet.txt')).toBe('hello\nworld\n');
    expect(await readText('extra.txt')).toBe('NOT_FOUND');
    await workIn('evening');
    expect(await readText('greet.txt')).toBe('good evening\nworld\n');
  });

  it("shows in the editor's gutter who wrote each line: the fork's agent and its change", async () => {
    await workIn('morning');
    await page().click('#file-tree >> text=greet.txt');
    const first = page().locator('#editor .cm-blame .blame-mark[data-line="1"]');
    await first.waitFor();
    expect(await first.getAttribute('data-actor')).toBe('agent:fork-morning');
    expect(await first.textContent()).toMatch(/^agent:fork-morning · chg_\d+$/);
    expect(await first.getAttribute('title')).toContain('write_file');
    await backToWorkspace();
    await page().click('#file-tree >> text=greet.txt');
    const before = page().locator('#editor .cm-blame .blame-mark[data-line="1"]');
    await before.waitFor();
    expect(await before.getAttribute('data-actor')).toBeNull();
  });

  it('compares the two forks side by side, each against its fork point', async () => {
    await page().click('#tab-forks');
    await page().click('#fork-compare');
    await page().waitForSelector('#fork-compare-view section[data-fork="evening"]');
    const columns = await page().$$eval('#fork-compare-view section', (sections) =>
      sections.map((s) => ({ fork: (s as HTMLElement).dataset.fork, diff: s.querySelector('pre')!.textContent! })),
    );
    expect(columns.map((c) => c.fork)).toEqual(['morning', 'evening']);
    expect(columns[0]!.diff).toContain('+good morning');
    expect(columns[0]!.diff).not.toContain('extra.txt');
    expect(columns[1]!.diff).toContain('+good evening');
    expect(columns[1]!.diff).toContain('+only in the evening fork');
  });

  it('merges one cleanly as one change in Review', async () => {
    // Merge one: one change in Review, the file is the fork's.
    const changesBefore = Number(await page().textContent('#timeline-count'));
    await page().click('#fork-list li[data-fork="morning"] button[data-act="merge"]');
    await page().waitForSelector('#fork-merge.ok');
    await page().waitForFunction(
      (n) => Number(document.getElementById('timeline-count')!.textContent) === n + 1,
      changesBefore,
    );
    expect(await readText('greet.txt')).toBe('good morning\nworld\n');
  });

  it("shows the other's conflict with its path and region, and changes nothing", async () => {
    const changesBefore = Number(await page().textContent('#timeline-count')) - 1;
    // The other changed the same line: the conflict names the path and its region, and nothing changes.
    await page().click('#tab-forks');
    await page().click('#fork-list li[data-fork="evening"] button[data-act="merge"]');
    await page().waitForSelector('#fork-merge.error');
    expect(await page().textContent('#fork-merge .code')).toBe('PATCH_CONFLICT');
    const conflict = (await page().textContent('#fork-merge li[data-path="greet.txt"]'))!;
    expect(conflict).toContain('good morning');
    expect(conflict).toContain('good evening');
    expect(await page().$('#fork-merge li[data-path="extra.txt"]')).toBeNull();
    expect(await readText('greet.txt')).toBe('good morning\nworld\n');
    expect(await readText('extra.txt')).toBe('NOT_FOUND');
    expect(Number(await page().textContent('#timeline-count'))).toBe(changesBefore + 1);
  });

  it('drops a fork: it leaves the list', async () => {
    // Drop it: it leaves the list.
    await page().click('#tab-forks');
    page().once('dialog', (dialog) => void dialog.accept());
    await page().click('#fork-list li[data-fork="evening"] button[data-act="drop"]');
    await page().waitForSelector('#fork-list li[data-fork="evening"]', { state: 'detached' });
    expect(await page().$$eval('#fork-list li', (items) => items.map((i) => (i as HTMLElement).dataset.fork))).toEqual([
      'morning',
    ]);
    expect(await status()).not.toContain('fork ');
  });
});
