import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filesOnBranch, startGitServer, type GitServer } from '../git/git-server.js';
import { clickAndRead } from './git-steps.js';
import { startPlayground, type Playground } from './playground.js';
import { callTool } from './preview-steps.js';

/**
 * Issue 26, the items that lose work or leave a person stuck, one test each: every one of these
 * failed on the playground before the fixes (a thrown TypeError, a silent discard, a page stuck
 * "still opening", a tab locked until a click, a reload that forgot the file and Redo).
 */
let pg: Playground;
let server: GitServer;
beforeAll(async () => {
  server = await startGitServer();
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await server?.close();
});

const page = () => pg.page;
const editorPath = () => page().textContent('#editor-path');
const focusedPath = () =>
  page().evaluate(
    () => (document.activeElement as HTMLElement | null)?.dataset?.path ?? document.activeElement?.tagName ?? null,
  );
async function openInEditor(path: string): Promise<void> {
  await page().click('#tab-console');
  await page().click(`#file-tree li[data-path="${path}"]`);
  await page().waitForFunction((p) => document.getElementById('editor-path')!.textContent === p, path);
}
async function typeInEditor(text: string): Promise<void> {
  await page().click('#editor .cm-content');
  await page().keyboard.press('End');
  await page().keyboard.type(text);
  await page().waitForFunction(() => !(document.getElementById('save') as HTMLButtonElement).disabled);
}

describe("the playground keeps a person's work and never leaves them stuck", () => {
  it('1, 16: deleting the open file closes it cleanly and keeps focus in the tree; so does F2 then Delete', async () => {
    for (const path of ['a.txt', 'b.txt', 'z.txt'])
      await callTool(page(), 'write_file', { path, content: `${path}\n` });
    await openInEditor('a.txt');
    await page().focus('#file-tree li[data-path="a.txt"]');
    page().once('dialog', (dialog) => void dialog.accept());
    await page().keyboard.press('Delete');
    await page().waitForFunction(() => !document.querySelector('#file-tree li[data-path="a.txt"]'));
    await page().waitForTimeout(300);
    expect(await editorPath()).toBe('No file open');
    expect(await page().isHidden('#editor-banner')).toBe(true);
    expect(await focusedPath()).toBe('b.txt');

    await openInEditor('b.txt');
    await page().focus('#file-tree li[data-path="b.txt"]');
    page().once('dialog', (dialog) => void dialog.accept('c.txt'));
    await page().keyboard.press('F2');
    await page().waitForSelector('#file-tree li[data-path="c.txt"]');
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'c.txt');
    await page().waitForTimeout(300);
    expect(await page().isHidden('#editor-banner')).toBe(true);
    expect(await focusedPath()).toBe('c.txt');
    page().once('dialog', (dialog) => void dialog.accept());
    await page().keyboard.press('Delete');
    await page().waitForFunction(() => !document.querySelector('#file-tree li[data-path="c.txt"]'));
    await page().waitForTimeout(300);
    expect(await editorPath()).toBe('No file open');
    expect(await page().isHidden('#editor-banner')).toBe(true);
    expect(await focusedPath()).toBe('z.txt');
    expect(pg.pageErrors.filter((e) => /Cannot set properties|TypeError/.test(e))).toEqual([]);
  });

  it('2: a Storage switch and a page reload ask before unsaved edits are dropped', async () => {
    await openInEditor('z.txt');
    await typeInEditor(' unsaved');
    let asked = '';
    page().once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page().selectOption('#backend', 'indexeddb');
    await page().waitForTimeout(300);
    expect(asked).toContain('Discard unsaved changes to z.txt');
    expect(await page().inputValue('#backend')).toBe('memory');
    expect(await page().textContent('#editor .cm-content')).toContain('unsaved');
    const blocked = await page().evaluate(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(blocked).toBe(true);
    // "New file" asks too, instead of replacing the unsaved text.
    let askedNew = '';
    page().once('dialog', (dialog) => {
      askedNew = dialog.message();
      void dialog.dismiss();
    });
    await page().click('#new-file');
    await page().fill('#new-file-path', 'n.txt');
    await page().press('#new-file-path', 'Enter');
    await page().waitForTimeout(200);
    expect(askedNew).toContain('Discard unsaved changes to z.txt');
    expect(await editorPath()).toBe('z.txt');
    await page().click('#save');
    await page().waitForFunction(() => (document.getElementById('save') as HTMLButtonElement).disabled);
    expect(
      await page().evaluate(() => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      }),
      // Saved, and still asked: on Memory a reload loses the files themselves (issue 33), and
      // keeps-work.test.ts shows that prompt. What saving ends is the unsaved-edits question above.
    ).toBe(true);
  });

  it('3: a bad workspace name and then a Storage change leave the open workspace working', async () => {
    for (const bad of ['bad name!', '../evil']) {
      await page().fill('#ws-name', bad);
      await page().selectOption('#backend', 'indexeddb');
      await page().waitForSelector('.toast.error');
      expect(await page().textContent('.toast.error')).toContain('cannot name a workspace');
      expect(await page().inputValue('#backend')).toBe('memory');
      expect(await page().textContent('#status')).toBe('Memory · playground');
      const listed = await callTool(page(), 'list_directory', { path: '.' });
      expect(listed.ok).toBe(true);
      expect(listed.result.entries.map((e: { path: string }) => e.path)).toContain('z.txt');
      await page().evaluate(() => document.querySelectorAll('.toast').forEach((t) => t.remove()));
    }
    await page().fill('#ws-name', 'playground');
  });

  for (const [backend, label] of [
    ['opfs', 'OPFS'],
    ['indexeddb', 'IndexedDB'],
  ] as const) {
    it(`4: a second tab takes the ${label} workspace as soon as the first closes it, and offers no sample while locked`, async () => {
      const status = `${label} · e2e-trust-lock-${backend}`;
      await page().fill('#ws-name', `e2e-trust-lock-${backend}`);
      await page().selectOption('#backend', backend);
      await page().waitForFunction((s) => document.getElementById('status')!.textContent === s, status);
      const second = await pg.context.newPage();
      await second.goto(pg.url);
      await pg.waitReady(second);
      expect(await second.isVisible('#locked')).toBe(true);
      expect(await second.isDisabled('#seed-sample')).toBe(true);
      await page().close();
      await second.waitForSelector('#locked', { state: 'hidden' });
      await second.waitForFunction((s) => document.getElementById('status')!.textContent === s, status);
      expect(await second.isDisabled('#seed-sample')).toBe(false);
      pg.page = second;
    });
  }

  it('12: a reload opens the same file again and keeps Redo', async () => {
    await callTool(page(), 'write_file', { path: 'keep.md', content: 'one\n' });
    await callTool(page(), 'write_file', { path: 'keep.md', content: 'two\n' });
    await page().click('#tab-review');
    await page().click('#undo');
    await page().waitForFunction(() => !(document.getElementById('redo') as HTMLButtonElement).disabled);
    await openInEditor('keep.md');
    await page().reload();
    await pg.waitReady(page());
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'keep.md');
    expect(await page().isDisabled('#redo')).toBe(false);
    await page().click('#tab-review');
    await page().click('#redo');
    await page().waitForFunction(() => document.querySelector('#editor .cm-content')!.textContent!.includes('two'));
  });

  it('8: Undo is off in a workspace with nothing to undo', async () => {
    await page().fill('#ws-name', 'e2e-trust-empty');
    await page().selectOption('#backend', 'memory');
    await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-trust-empty');
    expect(await page().isDisabled('#undo')).toBe(true);
  });

  it('9: the sample project is one change, so one Undo takes it all back, and its README tells the truth', async () => {
    await page().fill('#ws-name', 'e2e-trust-sample');
    await page().selectOption('#backend', 'memory');
    await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-trust-sample');
    await page().click('#seed-sample');
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'README.md');
    await page().waitForFunction(() => document.getElementById('timeline-count')!.textContent === '1');
    expect(await page().textContent('#editor .cm-content')).not.toContain('disappears when you reload');
    await page().click('#tab-review');
    await page().click('#undo');
    await page().waitForSelector('#tree-empty', { state: 'visible' });
  });

  it('11: an import says which files it left out and why', async () => {
    const folder = join(pg.base, 'with-deps');
    await mkdir(join(folder, 'node_modules', 'dep'), { recursive: true });
    await writeFile(join(folder, 'a.txt'), 'a\n');
    await writeFile(join(folder, 'node_modules', 'dep', 'index.js'), 'x\n');
    await page().setInputFiles('#import-input', folder);
    await page().waitForFunction(() =>
      document.getElementById('transfer-label')!.textContent!.startsWith('Imported 1 file.'),
    );
    expect(await page().textContent('#transfer-label')).toContain('Left out 1 file in node_modules/');
  });

  it('7: after Restore, the new timeline entry is selected and in view', async () => {
    for (let i = 0; i < 14; i++) await callTool(page(), 'write_file', { path: 'steps.txt', content: `step ${i}\n` });
    await page().click('#tab-review');
    const oldest = page().locator('#timeline li[data-id]').last();
    await oldest.scrollIntoViewIfNeeded();
    await oldest.click();
    await page().waitForFunction(() => !(document.getElementById('restore') as HTMLButtonElement).disabled);
    await page().click('#restore');
    await page().waitForFunction(
      () => document.querySelector('#timeline li[data-id]')?.getAttribute('aria-selected') === 'true',
    );
    await page().waitForTimeout(300);
    const inView = await page().$eval('#timeline', (list) => {
      const item = list.querySelector('li[aria-selected="true"]')!.getBoundingClientRect();
      const box = list.getBoundingClientRect();
      // A big diff once squeezed the list to a sliver; it keeps its height now.
      return box.height > 60 && item.top >= box.top - 1 && item.bottom <= box.bottom + 1;
    });
    expect(inView).toBe(true);
  });

  const hint = () => page().textContent('#git-push-hint');
  const pushOff = () => page().isDisabled('#git-push');
  const empty = () => `${server.url}/trust-empty.git`;

  it('8: Push and Pull wait for a remote that answered: a typed URL is asked first, an empty repository answers', async () => {
    await page().click('#tab-git');
    expect(await pushOff()).toBe(true);
    expect(await page().isDisabled('#git-pull')).toBe(true);
    expect(await hint()).toContain('Enter a repository URL');
    // A URL alone is not a remote: it is asked, does not answer, and the hint says so.
    await page().fill('#git-url', 'http://127.0.0.1:9/repo.git');
    await page().waitForFunction(() => /did not answer/.test(document.getElementById('git-push-hint')!.textContent!));
    expect(await hint()).toContain('CORS proxy field');
    expect(await pushOff()).toBe(true);
    expect(await page().isDisabled('#git-pull')).toBe(true);
    // An empty repository answers: Push starts it.
    execFileSync('git', ['init', '-q', '--bare', join(server.root, 'trust-empty.git')]);
    await page().fill('#git-url', empty());
    await page().waitForFunction(() => !(document.getElementById('git-push') as HTMLButtonElement).disabled);
    expect(await page().isDisabled('#git-pull')).toBe(false);
    expect(await hint()).toContain('empty repository');
  });

  it('14: commit message and author are fields, kept per workspace', async () => {
    await page().fill('#git-message', 'Add the greeting');
    await page().fill('#git-author-name', 'Ada');
    await page().fill('#git-author-email', 'ada@example.test');
    await page().press('#git-author-email', 'Tab');
    await page().fill('#ws-name', 'e2e-trust-other');
    await page().click('#open-ws');
    await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-trust-other');
    expect(await page().inputValue('#git-message')).toBe('');
    expect(await pushOff()).toBe(true);
    await page().fill('#ws-name', 'e2e-trust-sample');
    await page().click('#open-ws');
    await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-trust-sample');
    expect(await page().inputValue('#git-message')).toBe('Add the greeting');
    expect(await page().inputValue('#git-author-name')).toBe('Ada');
    expect(await page().inputValue('#git-url')).toBe(empty());
  });

  it('8: the kept remote is asked again; a push starts the empty repository; a URL with nothing behind it is off', async () => {
    // The kept remote is asked again and answers; the push of this workspace starts the empty repository.
    // (Memory keeps nothing across the switches above, so the file to push is written here.)
    await callTool(page(), 'write_file', { path: 'pushed.txt', content: 'pushed\n' });
    await page().click('#tab-git');
    await page().fill('#git-branch', 'main');
    await page().fill('#git-token', server.token);
    const pushed = await clickAndRead(page(), '#git-push');
    expect(pushed).toMatchObject({ ok: true, tool: 'git_push', result: { branch: 'main' } });
    expect(Object.keys(filesOnBranch(server, 'trust-empty', 'main'))).toContain('pushed.txt');
    // A URL with no repository behind it: off again, and the hint names what the server said.
    await page().fill('#git-url', `${server.url}/no-such.git`);
    await page().waitForFunction(() => /did not answer/.test(document.getElementById('git-push-hint')!.textContent!));
    expect(await hint()).toContain('HTTP 404');
    expect(await pushOff()).toBe(true);
  });
});
