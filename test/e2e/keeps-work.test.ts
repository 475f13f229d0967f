import { join } from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, startGitServer, type GitServer } from '../git/git-server.js';
import { clickAndRead } from './git-steps.js';
import { runForm, shots, startPlayground, treePaths, type Playground } from './playground.js';

/**
 * Issue 33: the playground loses nothing a person made without asking first, and the Git tab
 * never leaves them at a dead end. A person's route: the default storage, a Memory workspace
 * with the sample edited and saved, then every way that used to empty it (Tools, Open on the
 * same name, a Storage switch, a reload), each declined; then a clone from a workspace with files.
 */
let pg: Playground;
let page: Page;
let server: GitServer;
beforeAll(async () => {
  server = await startGitServer();
  createRepo(server, 'keeps', { 'README.md': '# cloned\n', 'src/app.js': 'export const a = 1;\n' });
  pg = await startPlayground();
  page = pg.page;
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  await server?.close();
});

const status = () => page.textContent('#status');

/**
 * Wait for the status line to start with `prefix`. A wait that gives up says what the page showed
 * (the status line, whether it was ready, the picker, the toasts, its errors) and leaves a
 * screenshot: one such wait failed once in three fresh clones, with nothing else to go on.
 */
async function waitForStatus(prefix: string): Promise<void> {
  await page
    .waitForFunction((start) => document.getElementById('status')!.textContent!.startsWith(start), prefix)
    .catch(async (error: Error) => {
      const shown = await page
        .evaluate(() => ({
          status: document.getElementById('status')!.textContent,
          ready: document.body.dataset.ready,
          storage: (document.getElementById('backend') as HTMLSelectElement).value,
          name: (document.getElementById('ws-name') as HTMLInputElement).value,
          toasts: [...document.querySelectorAll('#toasts .toast-text')].map((t) => t.textContent),
        }))
        .catch((reading: Error) => `(not read: ${reading.message})`);
      await page
        .screenshot({ path: join(shots, `keeps-work-status-${prefix.replace(/\W+/g, '-')}.png`) })
        .catch(() => {});
      throw new Error(
        `${error.message}\nthe page showed: ${JSON.stringify(shown)}\npage errors: ${pg.pageErrors.join('\n') || '(none)'}`,
      );
    });
}
const timelineSteps = () => page.$$eval('#timeline li.step', (items) => items.length);

/** Run `act`, answer the one dialog it raises with `answer`, and return that dialog's text and kind. */
async function answerDialog(
  act: () => Promise<unknown>,
  answer: 'accept' | 'dismiss',
): Promise<{ type: string; message: string }> {
  const raised = new Promise<Dialog>((resolve) => page.once('dialog', resolve));
  const acting = act();
  const dialog = await raised;
  const seen = { type: dialog.type(), message: dialog.message() };
  await (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  await acting;
  return seen;
}

describe('the playground keeps what a person made (issue 33)', () => {
  let files: Array<string | undefined>;
  let steps: number;

  it('opens on persistent storage by default: OPFS in Chromium', async () => {
    expect(await page.inputValue('#backend')).toBe('opfs');
    expect(await status()).toMatch(/^OPFS · playground/);
  });

  it('on Memory, chosen on purpose, the sample added, edited and saved', async () => {
    await page.fill('#ws-name', 'e2e-memory');
    await page.selectOption('#backend', 'memory');
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.startsWith('Memory · e2e-memory'));
    await pg.waitReady();
    await page.click('#seed-sample');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'README.md');
    await page.click('#editor .cm-line >> nth=0');
    await page.keyboard.press('End');
    await page.keyboard.insertText(' (edited)');
    await page.keyboard.press('Control+s');
    await page.waitForFunction(() => /^saved/.test(document.getElementById('editor-state')!.textContent!));
    await page.click('#tab-review');
    await page.waitForFunction(() => document.querySelectorAll('#timeline li.step').length >= 2);
    files = await treePaths(page);
    steps = await timelineSteps();
    expect(files.length).toBeGreaterThanOrEqual(8);
  });

  it("a click on the open file's row keeps what is typed and not saved", async () => {
    await page.click('#editor .cm-line >> nth=0');
    await page.keyboard.press('End');
    await page.keyboard.insertText(' (typed)');
    await page.click('#file-tree li[data-path="README.md"]');
    // a round trip to the workspace worker after the click: a read the click started has landed
    await page.evaluate(() =>
      (
        window as unknown as { sandpitPlayground: { session: { call(tool: string, args: object): Promise<unknown> } } }
      ).sandpitPlayground.session.call('read_file', { path: 'README.md' }),
    );
    await page.evaluate(() => new Promise(requestAnimationFrame));
    expect(await page.textContent('#editor .cm-line >> nth=0')).toMatch(/\(edited\) \(typed\)$/);
    expect(await page.textContent('#editor-state')).toBe('unsaved changes');
    // the click left the keyboard on the tree's row: back to the line's end in the editor
    await page.click('#editor .cm-line >> nth=0');
    await page.keyboard.press('End');
    for (let i = 0; i < ' (typed)'.length; i++) await page.keyboard.press('Backspace');
    // the text is the saved text again: nothing left to save
    await page.waitForFunction(() => (document.getElementById('save') as HTMLButtonElement).disabled);
  });

  it('changing Tools swaps the toolset and keeps every file and the history, without a question', async () => {
    await page.selectOption('#toolset', 'canonical-ask');
    await page.waitForFunction(() => document.getElementById('status')!.textContent!.includes('deletes asked'));
    await pg.waitReady();
    expect(await treePaths(page)).toEqual(files);
    await page.click('#tab-review');
    await page.waitForFunction((n) => document.querySelectorAll('#timeline li.step').length === n, steps);
    // The new tools are the ones that answer: a delete from the console now asks first.
    await page.click('#tab-console');
    await page.selectOption('#tool', 'delete_path');
    await page.fill('#arg-path', 'notes/todo.md');
    await page.click('#run');
    await page.waitForSelector('#approval[open]');
    await page.click('#approval-deny');
    await page.waitForSelector('#summary.error');
    expect(await page.textContent('#summary .code')).toBe('CONFIRMATION_DENIED');
    expect(await treePaths(page)).toEqual(files);
  });

  it('Open on the same name asks first, naming what goes; declining keeps every file and the history', async () => {
    const asked = await answerDialog(() => page.click('#open-ws'), 'dismiss');
    expect(asked.type).toBe('confirm');
    expect(asked.message).toContain('e2e-memory');
    expect(asked.message).toContain(`${files.filter((p) => p && /\.\w+$/.test(p)).length} files`);
    await pg.waitReady();
    expect(await treePaths(page)).toEqual(files);
    await page.click('#tab-review');
    expect(await timelineSteps()).toBe(steps);
  });

  it('a Storage switch away from Memory asks too, and declining leaves the picker on Memory', async () => {
    await page.fill('#ws-name', 'e2e-elsewhere');
    const asked = await answerDialog(() => page.selectOption('#backend', 'indexeddb'), 'dismiss');
    expect(asked.message).toMatch(/Memory/);
    await pg.waitReady();
    expect(await page.inputValue('#backend')).toBe('memory');
    expect(await page.inputValue('#ws-name')).toBe('e2e-memory');
    expect(await status()).toMatch(/^Memory · e2e-memory/);
    expect(await treePaths(page)).toEqual(files);
  });

  it('a reload on Memory with files asks (beforeunload); staying keeps everything', async () => {
    const asked = await answerDialog(() => page.evaluate(() => location.reload()), 'dismiss');
    expect(asked.type).toBe('beforeunload');
    expect(await treePaths(page)).toEqual(files);
    await page.click('#tab-review');
    expect(await timelineSteps()).toBe(steps);
  });

  it('saying yes to Open on the same name starts it empty, as the question said', async () => {
    await answerDialog(() => page.click('#open-ws'), 'accept');
    await page.waitForSelector('#tree-empty:not([hidden])');
    expect(await treePaths(page)).toEqual([]);
  });
});

describe('the Git tab has a way forward from a workspace with files (issue 33)', () => {
  it('after a failed clone, Push and Pull stay off: that URL did not answer', async () => {
    await page.fill('#ws-name', 'e2e-git-start');
    await page.selectOption('#backend', 'opfs');
    await waitForStatus('OPFS · e2e-git-start');
    await page.click('#tab-git');
    await page.fill('#git-url', 'http://127.0.0.1:9/nothing.git');
    const failed = await clickAndRead(page, '#git-clone');
    expect(failed.ok).toBe(false);
    expect(await page.isDisabled('#git-push')).toBe(true);
    expect(await page.isDisabled('#git-pull')).toBe(true);
  });

  it('offers "Clone into a new workspace" where this one has files: a name, then the clone', async () => {
    expect((await runForm(page, 'write_file', { path: 'mine.txt', content: 'kept\n' })).ok).toBe(true);
    await page.click('#tab-git');
    await page.waitForFunction(() => /new workspace/.test(document.getElementById('git-clone')!.textContent!));
    await page.fill('#git-url', `${server.url}/keeps.git`);
    await page.fill('#git-new-name', 'e2e-cloned');
    const cloned = await clickAndRead(page, '#git-clone');
    expect(cloned).toMatchObject({ ok: true, result: { files: 2 } });
    expect(await status()).toMatch(/^OPFS · e2e-cloned/);
    await page.waitForSelector('#file-tree li[data-path="src/app.js"]');
    expect((await treePaths(page)).sort()).toEqual(['.git', 'README.md', 'src', 'src/app.js']);
    // A remote answered: push and pull are offered now.
    expect(await page.isDisabled('#git-pull')).toBe(false);
    await page.screenshot({ path: join(shots, 'git-clone-new-workspace.png') });
    // The workspace it started from is where it was, with its file.
    await page.fill('#ws-name', 'e2e-git-start');
    await page.click('#open-ws');
    await waitForStatus('OPFS · e2e-git-start');
    await pg.waitReady();
    expect(await treePaths(page)).toEqual(['mine.txt']);
  });

  it('two Storage picks in quick succession: the page ends on the one picked last, and the first is let go', async () => {
    // Both picks in one go, as two presses of an arrow key on the picker make them: the second
    // comes while the first workspace is still opening. With the spare worker loaded, a second
    // open run beside the first connected on it first; the first then either won (the page on the
    // workspace picked first) or lost and kept its worker, holding that workspace's lock.
    await page.waitForSelector('body[data-offline-ready="true"]', { state: 'attached' });
    await page.evaluate(() => {
      const storage = document.getElementById('backend') as HTMLSelectElement;
      const name = document.getElementById('ws-name') as HTMLInputElement;
      for (const [backend, workspace] of [
        ['opfs', 'e2e-first'],
        ['memory', 'e2e-last'],
      ]) {
        name.value = workspace!;
        storage.value = backend!;
        storage.dispatchEvent(new Event('change'));
      }
    });
    await waitForStatus('Memory · e2e-last');
    await pg.waitReady();
    expect(await status()).toMatch(/^Memory · e2e-last/);
    expect(await page.inputValue('#backend')).toBe('memory');
    // The workspace picked first is free: nothing of this tab holds it any more.
    await page.fill('#ws-name', 'e2e-first');
    await page.selectOption('#backend', 'opfs');
    await waitForStatus('OPFS · e2e-first');
    await pg.waitReady();
    expect(await status()).not.toContain('locked');
    expect(await page.isHidden('#locked')).toBe(true);
    expect((await runForm(page, 'write_file', { path: 'first.txt', content: 'here\n' })).ok).toBe(true);
    await page.waitForSelector('#file-tree li[data-path="first.txt"]');
    expect(await treePaths(page)).toEqual(['first.txt']);
  });

  it('made no request beyond the local servers and logged no errors', () => {
    expect(pg.foreignRequests.filter((url) => !url.startsWith(server.url) && !url.includes('127.0.0.1:9/'))).toEqual(
      [],
    );
    expect(pg.pageErrors.filter((m) => !/Failed to load resource|ERR_/.test(m))).toEqual([]);
  });
});
