import type { FrameLocator, Page } from 'playwright-core';

/** The previewed page, as Playwright reaches into the cross-origin frame. */
export const previewFrame = (page: Page): FrameLocator => page.frameLocator('#preview-frame');

/** How many times the previewed page has fired its load event so far. */
export const previewLoads = (page: Page) =>
  page.$eval('#preview-frame', (f) => Number((f as HTMLElement).dataset.loads ?? 0));

/** Wait for the preview's next load after `before`, and give the text of `selector` in it. */
export async function nextLoad(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.getElementById('preview-frame')?.dataset.loads ?? 0) > n, before, {
    timeout: 15_000,
  });
}

/** Open the Preview tab and wait until the page in it has loaded at least once. */
export async function openPreview(page: Page): Promise<void> {
  await page.click('#tab-preview');
  await page.waitForFunction(
    () => Number(document.getElementById('preview-frame')?.dataset.loads ?? 0) > 0,
    undefined,
    { timeout: 20_000 },
  );
}

/** The lines of the console strip under the preview. */
export const previewConsole = (page: Page) =>
  page.$$eval('#preview-console li', (items) => items.map((i) => i.textContent ?? ''));

/** Run a tool through the page's own tool console and wait for its envelope. */
export async function callTool(page: Page, tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  await page.click('#tab-console');
  await page.selectOption('#tool', tool);
  await page.click('#mode-json');
  await page.fill('#args', JSON.stringify(args));
  // Cleared first, so a call whose envelope reads as the last one's still counts as answered.
  await page.$eval('#envelope', (node) => {
    node.textContent = '';
  });
  await page.click('#run');
  // A call waits behind the worker's other work (a save's snapshot, the blame the save asks for)
  // and a full run's load: the test's own time limit bounds it, not a second clock of its own (a
  // 60 s one ended a file_bytes call after a save at load 17).
  await page.waitForFunction(() => document.getElementById('envelope')!.textContent !== '', null, { timeout: 0 });
  await page.click('#mode-form');
  return JSON.parse((await page.textContent('#envelope'))!);
}
