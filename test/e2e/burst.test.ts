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
});
