import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { helpersOn, shots, type Playground } from './playground.js';

/** The editor, the console, review and undo, on the memory workspace the page opens with. */
export function editingSteps(get: () => Playground): void {
  let pg: Playground;
  let page: Page;
  beforeAll(() => {
    pg = get();
    page = pg.page;
  });
  const { editorText, treePaths, runForm } = helpersOn(() => page);

  it('opens an empty memory workspace with the backend picker and every tool in the console', async () => {
    expect(await page.inputValue('#backend')).toBe('memory');
    expect(await page.isVisible('#tree-empty')).toBe(true);
    const tools = await page.$$eval('#tool option', (options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(tools).toEqual(
      expect.arrayContaining(['read_file', 'edit_file', 'apply_patch', 'undo', 'restore_snapshot']),
    );
    // The form is generated from the schema: edit_file's required arguments come first and are marked.
    await page.selectOption('#tool', 'edit_file');
    const labels = await page.$$eval('#arg-form .field label', (items) => items.map((l) => l.textContent));
    expect(labels.slice(0, 3)).toEqual(['path required', 'old_text required', 'new_text required']);
    // A boolean is a choice with an explicit "not set", so the tool's own default can apply.
    expect(
      await page.$$eval('#arg-replace_all option', (options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(['', 'true', 'false']);
    await page.screenshot({ path: join(shots, 'empty.png') });
  });

  it('creates a file in the editor with write_file, then saves an edit with edit_file', async () => {
    await page.click('#new-file');
    await page.fill('#new-file-path', 'src/app.js');
    await page.press('#new-file-path', 'Enter');
    await page.click('#editor .cm-content');
    await page.keyboard.insertText('export const greeting = "hi";\nconsole.log(greeting);\n');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('#file-tree li[data-path="src/app.js"]');
    await page.waitForFunction(() => document.getElementById('editor-state')!.textContent === 'saved with write_file');
    expect(await page.isVisible('#tree-empty')).toBe(false);
    const read = await runForm('read_file', { path: 'src/app.js' });
    expect(read.result.content).toBe('export const greeting = "hi";\nconsole.log(greeting);\n');

    await page.click('#file-tree li[data-path="src/app.js"]');
    await page.click('#editor .cm-line >> nth=1');
    await page.keyboard.press('End');
    await page.keyboard.insertText(' // shown');
    expect(await page.isEnabled('#save')).toBe(true);
    await page.click('#save');
    await page.waitForFunction(() => document.getElementById('editor-state')!.textContent === 'saved with edit_file');
    const reread = await runForm('read_file', { path: 'src/app.js' });
    expect(reread.result.content).toBe('export const greeting = "hi";\nconsole.log(greeting); // shown\n');
  });

  it('runs an edit from the console, shows its diff in review, and undo brings the tree and editor back', async () => {
    const created = await runForm('write_file', { path: 'notes.md', content: '# notes\n' });
    expect(created.ok).toBe(true);
    await page.waitForSelector('#file-tree li[data-path="notes.md"]');
    await page.click('#file-tree li[data-path="src/app.js"]');
    const edit = await runForm('edit_file', { path: 'src/app.js', old_text: '"hi"', new_text: '"hello, sandpit"' });
    expect(edit).toMatchObject({ ok: true, result: { replacements: 1 } });
    expect(await page.textContent('#summary.ok .code')).toBe('ok');
    // The editor holds no unsaved work, so it follows the console's change.
    await page.waitForFunction(() =>
      document.querySelector('#editor .cm-content')!.textContent!.includes('hello, sandpit'),
    );

    await page.click('#tab-review');
    await page.waitForSelector('#timeline li.step.selected');
    expect(await page.textContent('#timeline li.step.selected .badge')).toBe('edit_file');
    expect(await page.textContent('#timeline li.step.selected .step-message')).toBe('src/app.js');
    expect(await page.textContent('#diff-stats .adds')).toBe('+1');
    expect(await page.textContent('#diff-stats .dels')).toBe('−1');
    await page.click('#diff-unified');
    expect(await page.textContent('table.unified tr.del td.code')).toBe('- export const greeting = "hi";');
    expect(await page.textContent('table.unified tr.add td.code')).toBe('+ export const greeting = "hello, sandpit";');
    await page.click('#diff-split');
    expect(await page.$$eval('table.split tr.change td.code', (cells) => cells.map((c) => c.textContent))).toEqual([
      'export const greeting = "hi";',
      'export const greeting = "hello, sandpit";',
    ]);
    await page.screenshot({ path: join(shots, 'review.png') });

    await page.click('#undo');
    await page.waitForFunction(
      () => !document.querySelector('#editor .cm-content')!.textContent!.includes('hello, sandpit'),
    );
    expect(await editorText()).toContain('"hi"');
    await page.waitForFunction(() => document.querySelector('#timeline li.step.selected .badge.undo') !== null);
    // Undo once more: notes.md was the change before, and it leaves the tree.
    await page.click('#undo');
    await page.waitForFunction(() => !document.querySelector('#file-tree li[data-path="notes.md"]'));
    expect(await treePaths()).toContain('src/app.js');
    // Redo brings notes.md back.
    await page.click('#redo');
    await page.waitForSelector('#file-tree li[data-path="notes.md"]');
  });

  it('runs a shell line with run_command from the console, and review lists its change with the diff', async () => {
    const ran = await runForm('run_command', { command: 'echo hi > r.txt && cat r.txt' });
    expect(ran).toMatchObject({
      ok: true,
      tool: 'run_command',
      result: { exit_code: 0, stdout: 'hi\n', stderr: '', timed_out: false, changed_files: ['r.txt'] },
    });
    await page.waitForSelector('#file-tree li[data-path="r.txt"]');
    await page.click('#tab-review');
    await page.waitForSelector('#timeline li.step.selected .badge:text-is("run_command")');
    expect(await page.textContent('#timeline li.step.selected .step-message')).toBe('r.txt');
    expect(await page.textContent('#diff-stats .adds')).toBe('+1');
    await page.click('#diff-unified');
    expect(
      await page.$$eval('#diff section.diff-file', (boxes) => boxes.map((b) => (b as HTMLElement).dataset.path)),
    ).toEqual(['r.txt']);
    expect(await page.$$eval('table.unified tr.add td.code', (cells) => cells.map((c) => c.textContent))).toEqual([
      '+ hi',
    ]);
    // The command's write is one step: undo takes r.txt away again, leaving the tree as the next steps expect.
    await page.click('#undo');
    await page.waitForFunction(() => !document.querySelector('#file-tree li[data-path="r.txt"]'));
  });

  it('shows an error envelope with its code, message and hint', async () => {
    const envelope = await runForm('edit_file', { path: 'src/app.js', old_text: 'no such text', new_text: 'x' });
    expect(envelope).toMatchObject({ ok: false, error: { code: 'NO_MATCH' } });
    expect(await page.textContent('#summary.error .code')).toBe('NO_MATCH');
    expect(await page.textContent('#summary .message')).toBe(envelope.error.message);
    // Raw JSON reaches the tool as typed, so the schema check names the mistake.
    await page.selectOption('#tool', 'read_file');
    await page.click('#mode-json');
    expect(await page.isVisible('#arg-form')).toBe(false);
    await page.fill('#args', '{"path": "src/app.js", "start_line": "two"}');
    await page.click('#run');
    await page.waitForSelector('#summary.error ul.problems');
    expect(await page.$$eval('#summary ul li', (items) => items.map((i) => i.textContent))).toContain(
      '/start_line must be integer',
    );
    // Back to the form: the raw arguments carry over into the fields.
    await page.click('#mode-form');
    expect(await page.inputValue('#arg-path')).toBe('src/app.js');
    await page.screenshot({ path: join(shots, 'error.png') });
  });

  it('deletes a file from the tree with the Delete key, and Alt+Z brings it back', async () => {
    page.once('dialog', (dialog) => void dialog.accept());
    await page.focus('#file-tree li[data-path="notes.md"]');
    await page.keyboard.press('Delete');
    await page.waitForFunction(() => !document.querySelector('#file-tree li[data-path="notes.md"]'));
    expect(JSON.parse((await page.textContent('#envelope'))!)).toMatchObject({
      ok: true,
      tool: 'delete_path',
      result: { path: 'notes.md' },
    });
    await page.keyboard.press('Alt+z');
    await page.waitForSelector('#file-tree li[data-path="notes.md"]');
  });

  it('renames a file from the tree with F2 through move_path', async () => {
    page.once('dialog', (dialog) => void dialog.accept('docs/notes.md'));
    await page.focus('#file-tree li[data-path="notes.md"]');
    await page.keyboard.press('F2');
    await page.waitForSelector('#file-tree li[data-path="docs/notes.md"]');
    expect(await treePaths()).not.toContain('notes.md');
    expect(JSON.parse((await page.textContent('#envelope'))!)).toMatchObject({
      ok: true,
      tool: 'move_path',
      result: { from: 'notes.md', to: 'docs/notes.md' },
    });
    await page.keyboard.press('Alt+z');
    await page.waitForSelector('#file-tree li[data-path="notes.md"]');
    await page.waitForFunction(() => !document.querySelector('#file-tree li[data-path="docs/notes.md"]'));
  });

  it('tells the editor when an undo removes its file, and picks the file up again on redo', async () => {
    await page.keyboard.press('Alt+n');
    await page.keyboard.type('scratch.txt');
    await page.keyboard.press('Enter');
    await page.click('#editor .cm-content');
    await page.keyboard.insertText('draft');
    await page.keyboard.press('Control+s');
    await page.waitForSelector('#file-tree li[data-path="scratch.txt"]');
    await page.keyboard.press('Alt+z');
    await page.waitForSelector('#editor-banner:has-text("undo removed this file")');
    expect(await page.textContent('#editor-state')).toBe('new file, not saved yet');
    await page.click('#tab-review');
    await page.click('#redo');
    await page.waitForSelector('#editor-banner', { state: 'hidden' });
    expect(await editorText()).toBe('draft');
    expect(await page.isDisabled('#save')).toBe(true);
  });
}
