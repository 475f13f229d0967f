import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool } from './preview-steps.js';
import { runForm, shots, startPlayground, treePaths, type Playground } from './playground.js';

/**
 * Issue 33: the playground reads as a person expects. A long line scrolls inside the editor, a
 * command's output reads as a terminal, toasts do not pile up, and the smaller things: the name
 * message, the locked header, Redo in words, a Latin-1 file's guess, natural order in the tree,
 * whole hex rows, focus after the sample, and an Agent placeholder naming a real file.
 */
let pg: Playground;
let page: Page;
beforeAll(async () => {
  pg = await startPlayground({ storage: 'memory' });
  page = pg.page;
  // The size the issue was found at: the hex rows and the header are measured in it.
  await page.setViewportSize({ width: 1400, height: 900 });
}, 120_000);
afterAll(async () => pg?.stop());

const box = (selector: string) =>
  page.$eval(selector, (node) => {
    const r = node.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
  });

describe('the playground reads as a person expects (issue 33)', () => {
  it('Enter on "Add the sample project" leaves focus on the page, in the file it opened', async () => {
    await page.focus('#seed-sample');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'README.md');
    const focused = await page.evaluate(() => {
      const active = document.activeElement;
      return active && active !== document.body
        ? (active.closest('#file-tree, #editor') as HTMLElement | null)?.id
        : null;
    });
    expect(['file-tree', 'editor']).toContain(focused);
  });

  it("the Agent tab's placeholder names a file the sample really has", async () => {
    const placeholder = (await page.getAttribute('#agent-task', 'placeholder'))!;
    const named = placeholder.match(/[\w-]+(?:\/[\w-]+)+\.\w+/)?.[0];
    expect(named).toBeTruthy();
    expect(await treePaths(page)).toContain(named);
  });

  it('End on a long line scrolls the editor content, and the line numbers stay in view', async () => {
    const long = `const line = '${'x'.repeat(1500)}';\nshort\n`;
    expect((await callTool(page, 'write_file', { path: 'long.ts', content: long })).ok).toBe(true);
    await page.click('#file-tree li[data-path="long.ts"]');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'long.ts');
    await page.click('#editor .cm-line >> nth=0');
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector<HTMLElement>('#editor .cm-scroller')!.scrollLeft > 0);
    const outer = await box('#editor');
    const gutter = await box('#editor .cm-gutters');
    expect(await page.$eval('#editor', (n) => n.scrollLeft)).toBe(0);
    expect(gutter.left).toBeGreaterThanOrEqual(outer.left - 1);
    expect(gutter.right).toBeLessThanOrEqual(outer.right);
    expect((await box('#editor .cm-editor')).width).toBeLessThanOrEqual(outer.width + 1);
    await page.screenshot({ path: join(shots, 'long-line-end.png') });
  });

  it("shows run_command as a terminal: stdout, stderr in its colour, the exit code, time, and the change's link", async () => {
    await page.click('#tab-console');
    await page.selectOption('#tool', 'run_command');
    await page.fill('#arg-command', 'echo "made it" > made.txt; cat made.txt; echo oops >&2; exit 3');
    await page.click('#run');
    await page.waitForSelector('#terminal:not([hidden]) .term-exit');
    expect(await page.textContent('#terminal .term-stdout')).toBe('made it\n');
    expect(await page.textContent('#terminal .term-stderr')).toBe('oops\n');
    const colours = await page.$eval('#terminal', (t) => [
      getComputedStyle(t.querySelector('.term-stdout')!).color,
      getComputedStyle(t.querySelector('.term-stderr')!).color,
    ]);
    expect(colours[0]).not.toBe(colours[1]);
    expect(await page.textContent('#terminal .term-exit')).toMatch(/exit 3/);
    expect(await page.textContent('#terminal .term-exit')).toMatch(/\d+ ms|\d+(\.\d+)? s/);
    // Not an escaped JSON string: the text as the command wrote it.
    expect(await page.isVisible('#envelope')).toBe(false);
    expect(await page.textContent('#terminal')).not.toContain('\\n');
    // The JSON is one click away.
    await page.click('#show-json');
    expect(JSON.parse((await page.textContent('#envelope'))!)).toMatchObject({ ok: true, tool: 'run_command' });
    await page.click('#show-json');
    expect(await page.isVisible('#envelope')).toBe(false);
    expect(await page.textContent('#terminal .term-change')).toContain('made.txt');
    await page.screenshot({ path: join(shots, 'console-terminal.png') });
    await page.click('#terminal .term-change a');
    expect(await page.getAttribute('#tab-review', 'aria-selected')).toBe('true');
    await page.waitForFunction(() => document.getElementById('diff')!.textContent!.includes('made it'));
  });

  it('a new tool clears the old result, and other tools keep the JSON view', async () => {
    await page.click('#tab-console');
    await page.selectOption('#tool', 'read_file');
    expect(await page.isVisible('#terminal')).toBe(false);
    expect(await page.isVisible('#summary')).toBe(false);
    expect(await page.textContent('#envelope')).not.toContain('run_command');
    const read = await runForm(page, 'read_file', { path: 'made.txt' });
    expect(read).toMatchObject({ ok: true, result: { content: 'made it\n' } });
    expect(await page.isVisible('#envelope')).toBe(true);
  });

  it('sorts the file tree in natural order: f1, f2, f10, f100', async () => {
    for (const name of ['f100', 'f10', 'f2', 'f1'])
      expect((await callTool(page, 'write_file', { path: `nat/${name}`, content: `${name}\n` })).ok).toBe(true);
    // f1 is written last: a tree that lists it has had every write before it (f100, written
    // first, showed while f1 was still on its way, and the list was read one file short).
    await page.waitForSelector('#file-tree li[data-path="nat/f1"]');
    expect((await treePaths(page)).filter((p) => p?.startsWith('nat/'))).toEqual([
      'nat/f1',
      'nat/f2',
      'nat/f10',
      'nat/f100',
    ]);
  });

  it('opens a Latin-1 file with the picker on latin1, not utf-16le', async () => {
    const written = await callTool(page, 'write_file', {
      path: 'cafe.txt',
      content: 'café crème\n',
      encoding: 'latin1',
    });
    expect(written.ok).toBe(true);
    await page.click('#file-tree li[data-path="cafe.txt"]');
    await page.waitForSelector('#viewer-encoding');
    expect(await page.inputValue('#viewer-encoding')).toBe('latin1');
  });

  it("shows the hex view's rows whole", async () => {
    const bytes = Array.from({ length: 64 }, (_, i) => i);
    await page.evaluate(async (list) => {
      const { session } = (window as unknown as { sandpitPlayground: { session: any } }).sandpitPlayground;
      await session.importFiles([{ path: 'bytes.bin', bytes: new Uint8Array(list) }]);
    }, bytes);
    await page.click('#tab-console');
    await page.waitForSelector('#file-tree li[data-path="bytes.bin"]');
    await page.click('#file-tree li[data-path="bytes.bin"]');
    await page.waitForSelector('.viewer-hex');
    const hex = await page.$eval('.viewer-hex', (n) => ({ scroll: n.scrollWidth, client: n.clientWidth }));
    expect(hex.scroll).toBeLessThanOrEqual(hex.client);
    await page.screenshot({ path: join(shots, 'hex-view.png') });
  });

  it('Redo shows in words, naming the change it brings back', async () => {
    expect((await callTool(page, 'write_file', { path: 'redo-me.txt', content: 'back\n' })).ok).toBe(true);
    await page.click('#tab-review');
    await page.waitForFunction(() =>
      document.querySelector('#timeline li.step .step-message')?.textContent?.includes('redo-me.txt'),
    );
    await page.click('#undo');
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('#redo')!.disabled);
    await page.click('#redo');
    await page.waitForFunction(() => document.querySelector('#timeline li.step .badge')?.textContent !== 'undo');
    const newest = (await page.textContent('#timeline li.step'))!;
    expect(newest).toMatch(/redo/i);
    expect(newest).toContain('redo-me.txt');
    expect(newest).not.toMatch(/back to [0-9a-f]{7,}/);
  });

  it('a bad workspace name gets a message saying what is allowed', async () => {
    await page.fill('#ws-name', 'my workspace!');
    await page.click('#open-ws');
    await page.waitForFunction(() => /letters, digits/.test(document.getElementById('toasts')!.textContent!));
    expect(await page.textContent('#status')).toMatch(/^Memory · playground/);
    await page.fill('#ws-name', 'playground');
  });

  it('keeps at most three toasts, the oldest closing first, and a workspace switch clears them', async () => {
    for (let i = 1; i <= 5; i++) {
      await page.fill('#ws-name', `bad name ${i}`);
      await page.selectOption('#backend', 'indexeddb');
      await page.waitForFunction((n) => document.getElementById('toasts')!.textContent!.includes(`bad name ${n}`), i);
    }
    const texts = await page.$$eval('#toasts .toast', (items) => items.map((t) => t.textContent));
    expect(texts.length).toBeLessThanOrEqual(3);
    expect(texts.at(-1)).toContain('bad name 5');
    expect(texts.join(' ')).not.toContain('bad name 1');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.fill('#ws-name', 'e2e-clean');
    await page.selectOption('#backend', 'indexeddb');
    await page.waitForFunction(() =>
      document.getElementById('status')!.textContent!.startsWith('IndexedDB · e2e-clean'),
    );
    expect(await page.$$eval('#toasts .toast', (items) => items.length)).toBe(0);
  });

  it('in a tab where another holds the workspace, the header stays one line and "+ New file" is not offered', async () => {
    const header = (on: Page) => on.$eval('header.top', (n) => n.getBoundingClientRect().height);
    const own = await header(page);
    const second = await pg.context.newPage();
    await second.setViewportSize({ width: 1400, height: 900 });
    await second.goto(pg.url);
    await pg.waitReady(second);
    await second.waitForSelector('#locked:not([hidden])');
    expect(await second.isVisible('#new-file')).toBe(false);
    expect(await header(second)).toBeLessThanOrEqual(own);
    // One line: the header's last button sits on the row of its first field, in both tabs.
    for (const on of [page, second]) {
      const [exportTop, backendBottom] = await on.evaluate(() => [
        document.getElementById('export')!.getBoundingClientRect().top,
        document.getElementById('backend')!.getBoundingClientRect().bottom,
      ]);
      expect(exportTop).toBeLessThan(backendBottom);
    }
    await second.screenshot({ path: join(shots, 'locked-tab.png') });
    await second.close();
  });

  it('logged no errors', () => {
    expect(pg.pageErrors).toEqual([]);
  });
});
