import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, treePaths, type Playground } from './playground.js';

/**
 * Issue 38: an agent writing many files at once sends a change event per write, and the tree, the
 * timeline and the hunks fold those into fewer redraws. Once the burst settles, what they show is
 * what one redraw per write would have shown: every file, every change, the newest selected.
 */
const FILES = 40;
let pg: Playground;
let page: Page;
beforeAll(async () => {
  pg = await startPlayground({ storage: 'memory' });
  page = pg.page;
}, 120_000);
afterAll(async () => pg?.stop());

describe('a burst of writes (issue 38)', () => {
  it('ends with every file in the tree, every change in the timeline and the newest one selected', async () => {
    await page.evaluate(async (count) => {
      const { session } = (window as any).sandpitPlayground;
      // All at once, none awaited before the next: the page hears the changes while it redraws.
      await Promise.all(
        Array.from({ length: count }, (_, n) =>
          session.call('write_file', { path: `burst/f${n + 1}.txt`, content: `file ${n + 1}\n` }),
        ),
      );
    }, FILES);
    await page.waitForFunction(
      (count) =>
        document.getElementById('timeline-count')!.textContent === String(count) &&
        document.getElementById('file-count')!.textContent === String(count),
      FILES,
    );
    const newest = await page.evaluate(async () => {
      const { session } = (window as any).sandpitPlayground;
      const listed = await session.call('list_snapshots', { limit: 1 });
      return listed.result.snapshots[0].id as string;
    });
    await page.waitForFunction(
      (id) => document.querySelector<HTMLElement>('#timeline li.step.selected')?.dataset.id === id,
      newest,
    );
    expect(await page.locator('#timeline li.step').count()).toBe(FILES);
    expect(await treePaths(page)).toEqual(['burst', ...Array.from({ length: FILES }, (_, n) => `burst/f${n + 1}.txt`)]);
    // The hunks list shows the newest 50 pending: all 40 new files are waiting for review.
    await page.waitForFunction((count) => document.querySelectorAll('#hunks li.hunk').length === count, FILES);
  });
  it('keeps the rows of what did not change: a typed reason, the focus, and a row updated when its entry changes', async () => {
    // Mark the rows as they stand; a redraw that rebuilt a row would drop its mark.
    const mark = () =>
      page.evaluate(() => {
        for (const row of document.querySelectorAll('#file-tree li[data-path], #timeline li.step, #hunks li.hunk'))
          (row as any).__kept = true;
      });
    const kept = (selector: string) => page.$eval(selector, (row) => (row as any).__kept === true);
    await page.click('#tab-review');
    const oldest = page.locator('#hunks li.hunk[data-path="burst/f1.txt"]');
    await oldest.locator('input.hunk-reason').fill('not this one');
    await mark();
    const oldestStep = await page.$eval('#timeline li.step:last-child', (row) => (row as HTMLElement).dataset.id!);
    await page.evaluate(async () => {
      const { session } = (window as any).sandpitPlayground;
      await session.call('write_file', { path: 'burst/f2.txt', content: 'file 2, now longer\n' });
    });
    await page.waitForFunction(() => document.getElementById('timeline-count')!.textContent === '41');
    await page.waitForFunction(
      () => document.querySelector('#file-tree li[data-path="burst/f2.txt"] .size')?.textContent === '19 B',
    );
    // The reason typed into a hunk that is still waiting stays, and so does the focus in it.
    await page.waitForFunction(
      () => document.querySelector<HTMLElement>('#hunks li.hunk')?.dataset.path === 'burst/f2.txt',
    );
    expect(await oldest.locator('input.hunk-reason').inputValue()).toBe('not this one');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('hunk-reason'))).toBe(true);
    expect(await kept('#hunks li.hunk[data-path="burst/f1.txt"]')).toBe(true);
    // The changed file's row is new (its flash plays), an unchanged one is the same row.
    expect(await kept('#file-tree li[data-path="burst/f2.txt"]')).toBe(false);
    expect(await page.getAttribute('#file-tree li[data-path="burst/f2.txt"]', 'class')).toContain('changed');
    expect(await kept('#file-tree li[data-path="burst/f3.txt"]')).toBe(true);
    // The new step is the newest and selected, and "now" moved to it; older steps kept their rows.
    await page.waitForFunction(
      () => document.querySelector('#timeline li.step')?.getAttribute('aria-selected') === 'true',
    );
    const newest = page.locator('#timeline li.step').first();
    expect(await newest.locator('.badge.head').count()).toBe(1);
    expect(await page.locator('#timeline .badge.head').count()).toBe(1);
    expect(await page.locator('#timeline li.step[aria-selected="true"]').count()).toBe(1);
    expect(await kept(`#timeline li.step[data-id="${oldestStep}"]`)).toBe(true);
  });

  it('keeps keyboard focus on a tree row while writes redraw the tree', async () => {
    await page.focus('#file-tree li[data-path="burst/f3.txt"]');
    await page.evaluate(async () => {
      const { session } = (window as any).sandpitPlayground;
      await session.call('write_file', { path: 'burst/f41.txt', content: 'file 41\n' });
    });
    await page.waitForFunction(() => document.getElementById('file-count')!.textContent === '41');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('burst/f3.txt');
    expect(await page.getAttribute('#file-tree li[data-path="burst/f3.txt"]', 'tabindex')).toBe('0');
    // Arrow keys still move from there.
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.path)).toBe('burst/f4.txt');
  });
});
