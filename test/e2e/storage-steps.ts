import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { helpersOn, runForm as runFormOn, shots, treePaths as pathsOf, type Playground } from './playground.js';

/** The persistent backends: OPFS and IndexedDB across reloads, a second tab, and a fresh workspace. */
export function storageSteps(get: () => Playground): void {
  let pg: Playground;
  let page: Page;
  beforeAll(() => {
    pg = get();
    page = pg.page;
  });
  const { editorText, treePaths, runForm } = helpersOn(() => page);

  it('switches to OPFS, and the files and the timeline survive a reload', async () => {
    await page.fill('#ws-name', 'e2e-persist');
    await page.selectOption('#backend', 'opfs');
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('OPFS · e2e-persist'));
    await pg.waitReady();
    expect(await page.isVisible('#tree-empty')).toBe(true);
    const written = await runForm('write_file', { path: 'kept/across-reloads.txt', content: 'still here\n' });
    expect(written.ok).toBe(true);
    await page.waitForSelector('#file-tree li[data-path="kept/across-reloads.txt"]');

    await page.reload();
    await pg.waitReady();
    expect(await page.inputValue('#backend')).toBe('opfs');
    expect(await page.inputValue('#ws-name')).toBe('e2e-persist');
    expect(await treePaths()).toEqual(['kept', 'kept/across-reloads.txt']);
    await page.click('#file-tree li[data-path="kept/across-reloads.txt"]');
    await page.waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent === 'still here');
    await page.click('#tab-review');
    await page.waitForSelector('#timeline li.step');
    expect(await page.textContent('#timeline li.step .step-message')).toContain('kept/across-reloads.txt');
    await page.screenshot({ path: join(shots, 'opfs-after-reload.png') });
  });

  it('tells a second tab on the same OPFS workspace that it is locked', async () => {
    const second = await pg.context.newPage();
    await second.goto(pg.url);
    await pg.waitReady(second);
    expect(await second.isVisible('#locked')).toBe(true);
    expect(await second.textContent('#status')).toContain('locked by another tab');
    await second.selectOption('#tool', 'write_file');
    await second.fill('#arg-path', 'intruder.txt');
    await second.fill('#arg-content', 'no\n');
    await second.click('#run');
    await second.waitForSelector('#summary.error');
    expect(await second.textContent('#summary .code')).toBe('IO_ERROR');

    // The first tab moves to memory and lets go: the second tab's next call opens the workspace.
    await page.selectOption('#backend', 'memory');
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Memory'));
    const listed = await runFormOn(second, 'list_directory', { path: '.' });
    expect(listed.ok).toBe(true);
    await second.waitForSelector('#file-tree li[data-path="kept/across-reloads.txt"]');
    expect(await second.isVisible('#locked')).toBe(false);
    await second.waitForFunction(() => document.getElementById('status')!.textContent === 'OPFS · e2e-persist');
    expect(await pathsOf(second)).not.toContain('intruder.txt');
    await second.close();
  });

  it('offers a fresh workspace the sample project and the sample session from its empty state', async () => {
    await pg.waitReady();
    expect(await page.isVisible('#tree-empty')).toBe(true);
    await page.click('#empty-replay');
    expect(await page.isVisible('#pane-replay')).toBe(true);
    expect(await page.textContent('#replay-count')).toBe('0 / 14');
    await page.click('#seed-sample');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'README.md');
    expect(await treePaths()).toEqual(expect.arrayContaining(['src/greet.ts', 'notes/todo.md', 'data/config.json']));
    expect(await editorText()).toContain('# hello-sandpit');
    expect(await page.textContent('#editor-lang')).toBe('Markdown');
    // Folders fold by click and by keyboard, and say so to assistive tech.
    await page.click('#file-tree li[data-path="src"]');
    expect(await page.getAttribute('#file-tree li[data-path="src"]', 'aria-expanded')).toBe('false');
    expect(await treePaths()).not.toContain('src/greet.ts');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#file-tree li[data-path="src/greet.ts"]');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'src/greet.ts');
    expect(await page.textContent('#editor-lang')).toBe('TypeScript');
  });

  it('keeps an IndexedDB workspace across a reload too', async () => {
    await page.fill('#ws-name', 'e2e-idb');
    await page.selectOption('#backend', 'indexeddb');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'IndexedDB · e2e-idb');
    expect((await runForm('write_file', { path: 'db.txt', content: 'in indexeddb\n' })).ok).toBe(true);
    await page.reload();
    await pg.waitReady();
    expect(await page.inputValue('#backend')).toBe('indexeddb');
    expect(await treePaths()).toEqual(['db.txt']);
  });

  it('keeps working offline once loaded: a backend switch and a whole replay with the network off', async () => {
    // "Loaded" is the page's own word for it: the spare worker has fetched all it loads on first use.
    await page.waitForSelector('body[data-offline-ready="true"]', { state: 'attached', timeout: 20_000 });
    expect(await page.getAttribute('#status', 'title')).toMatch(/keeps working offline/);
    await pg.context.setOffline(true);
    try {
      await page.fill('#ws-name', 'offline');
      await page.selectOption('#backend', 'memory');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · offline');
      await page.click('#tab-replay');
      await page.click('#replay-load-sample');
      await page.click('#replay-all');
      await page.waitForFunction(() => document.getElementById('replay-count')!.textContent === '14 / 14', undefined, {
        timeout: 30_000,
      });
      await page.waitForSelector('#file-tree li[data-path="src/greet.test.js"]');
    } finally {
      await pg.context.setOffline(false);
    }
  });

  it('opens again once back online, though the spare worker started while offline never loaded', async () => {
    await page.fill('#ws-name', 'online-again');
    await page.selectOption('#backend', 'indexeddb');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'IndexedDB · online-again');
    expect((await runForm('write_file', { path: 'here.txt', content: 'here\n' })).ok).toBe(true);
  });

  it('says so and throws nothing when a switch cannot fetch the code it needs, then opens once it can', async () => {
    const errorsBefore = pg.pageErrors.length;
    const backendCode = /\/assets\/(memory|indexeddb|opfs)-[^/]*\.js$/;
    let refused = 0;
    await page.waitForSelector('body[data-offline-ready="true"]', { state: 'attached' });
    await pg.context.route(backendCode, (route) => {
      refused++;
      return route.abort();
    });
    try {
      // The spare fetched everything before the cut, so this switch works; its own spare cannot.
      await page.fill('#ws-name', 'cut-off');
      await page.selectOption('#backend', 'opfs');
      await page.waitForFunction(() => document.getElementById('status')!.textContent === 'OPFS · cut-off');
      expect(await page.getAttribute('body', 'data-offline-ready')).toBe('false');
      // So the next switch fails, and so does going back: neither worker can get the code.
      await page.selectOption('#backend', 'memory');
      await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('no workspace open'));
      await page.waitForSelector('body[data-ready="true"]', { state: 'attached' });
      expect(refused).toBeGreaterThan(0);
      expect(await page.textContent('#toasts')).toMatch(/Could not open cut-off/);
    } finally {
      await pg.context.unroute(backendCode);
    }
    await page.fill('#ws-name', 'back-online');
    await page.selectOption('#backend', 'memory');
    await page.waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · back-online');
    expect((await runForm('write_file', { path: 'ok.txt', content: 'ok\n' })).ok).toBe(true);
    // The refused fetches are the browser's to log; nothing the page ran threw.
    const logged = pg.pageErrors.splice(errorsBefore);
    expect(
      logged.filter((message) => !/Failed to load resource|ERR_FAILED|dynamically imported module/.test(message)),
    ).toEqual([]);
  });
}
