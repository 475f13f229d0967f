import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import type { Page } from 'playwright-core';
import { beforeAll, expect, it } from 'vitest';
import { helpersOn, shots, type Playground } from './playground.js';

/** Replay, restore, export and import, continuing on the same memory workspace. */
export function transferSteps(get: () => Playground): void {
  let pg: Playground;
  let page: Page;
  beforeAll(() => {
    pg = get();
    page = pg.page;
  });
  const { editorText, treePaths, runForm } = helpersOn(() => page);

  it('replays the sample transcript to the end, with the ambiguous edit marked', async () => {
    await page.click('#tab-replay');
    await page.click('#replay-load-sample');
    expect(await page.textContent('#replay-count')).toBe('0 / 14');
    await page.click('#replay-step');
    await page.waitForFunction(() => document.getElementById('replay-count')!.textContent === '1 / 14');
    await page.click('#replay-all');
    await page.waitForFunction(() => document.getElementById('replay-count')!.textContent === '14 / 14', undefined, {
      timeout: 30_000,
    });
    expect(await page.$eval('#replay-progress', (p) => (p as HTMLProgressElement).value)).toBe(14);
    const outcomes = await page.$$eval('#replay-steps li .outcome', (items) => items.map((i) => i.textContent));
    expect(outcomes[7]).toBe('AMBIGUOUS_MATCH');
    expect(outcomes.filter((o) => o !== 'ok')).toEqual(['AMBIGUOUS_MATCH']);
    await page.waitForSelector('#file-tree li[data-path="src/greet.test.js"]');
    // The last step read src/main.js after the undo: both greet('world') lines are back.
    const last = JSON.parse((await page.textContent('#envelope'))!);
    expect(last.tool).toBe('list_directory');
    expect(await page.isDisabled('#replay-all')).toBe(true);
    await page.click('#file-tree li[data-path="src/main.js"]');
    await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'src/main.js');
    expect((await editorText()).match(/greet\('world'\)/g)?.length).toBe(2);
    await page.screenshot({ path: join(shots, 'replay.png') });

    // The patch step in review, side by side: the picture the README shows.
    await page.click('#tab-review');
    await page.click('#timeline li.step:has(.badge:text-is("apply_patch"))');
    await page.waitForSelector('#diff section.diff-file[data-path="src/greet.test.js"]');
    expect(
      await page.$$eval('#diff section.diff-file', (boxes) => boxes.map((b) => (b as HTMLElement).dataset.path)),
    ).toEqual(['src/greet.js', 'src/greet.test.js']);
    await page.click('#diff-split');
    // Toasts from earlier tests would cover the corner; the README picture is of the page at rest.
    await page.evaluate(() => document.getElementById('toasts')!.replaceChildren());
    await page.screenshot({ path: join(shots, 'playground.png') });
  });

  it('restores an earlier step, and undoing the restore brings the later files back', async () => {
    await page.click('#tab-review');
    await page.click('#timeline li.step:has(.step-message:text-is("README.md"))');
    expect(await page.isEnabled('#restore')).toBe(true);
    await page.click('#restore');
    await page.waitForFunction(() => !document.querySelector('#file-tree li[data-path="src/greet.js"]'));
    expect(await treePaths()).toEqual(expect.arrayContaining(['README.md', 'notes.md', 'src/app.js']));
    expect(await page.textContent('#timeline li.step.selected .badge')).toBe('restore');
    await page.click('#undo');
    await page.waitForSelector('#file-tree li[data-path="src/greet.test.js"]');
  });

  it('exports the workspace as a zip with progress', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    expect(download.suggestedFilename()).toBe('playground.zip');
    const zipPath = join(pg.base, 'export.zip');
    await download.saveAs(zipPath);
    const files = unzipSync(new Uint8Array(await readFile(zipPath)));
    expect(Object.keys(files)).toEqual(
      expect.arrayContaining(['README.md', 'src/greet.js', 'src/greet.test.js', 'src/app.js']),
    );
    expect(strFromU8(files['src/greet.js']!)).toBe('export function greet(name) {\n  return `Hello, ${name}!`;\n}\n');
    await page.waitForFunction(() => document.getElementById('transfer-label')!.textContent!.startsWith('Exported'));
    expect(await page.textContent('#transfer-count')).toMatch(/^(\d+) \/ \1$/);
  });

  it('imports a folder from disk byte for byte, binary files included, as one undoable change', async () => {
    const folder = join(pg.base, 'picked');
    await mkdir(join(folder, 'lib'), { recursive: true });
    await writeFile(join(folder, 'lib', 'util.py'), 'def twice(x):\r\n    return 2 * x\r\n');
    const logo = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0xff]);
    await writeFile(join(folder, 'logo.png'), logo);
    const utf16 = Buffer.from([0xff, 0xfe, 0x68, 0, 0x69, 0, 0x0d, 0, 0x0a, 0]);
    await writeFile(join(folder, 'win.txt'), utf16);
    await page.setInputFiles('#import-input', folder);
    await page.waitForSelector('#file-tree li[data-path="lib/util.py"]');
    await page.waitForSelector('#file-tree li[data-path="logo.png"]');
    await page.waitForFunction(() =>
      document.getElementById('transfer-label')!.textContent!.startsWith('Imported 3 files.'),
    );
    const read = await runForm('read_file', { path: 'lib/util.py' });
    expect(read.result).toMatchObject({ eol: 'crlf', content: 'def twice(x):\n    return 2 * x\n' });
    const bytes = await runForm('file_bytes', { path: 'logo.png' });
    expect(bytes.result).toMatchObject({ size_bytes: logo.length });

    // the export gives back exactly the bytes that came in
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export')]);
    const zipPath = join(pg.base, 'export-after-import.zip');
    await download.saveAs(zipPath);
    const files = unzipSync(new Uint8Array(await readFile(zipPath)));
    expect(Buffer.from(files['logo.png']!).equals(logo)).toBe(true);
    expect(Buffer.from(files['win.txt']!).equals(utf16)).toBe(true);
    expect(strFromU8(files['lib/util.py']!)).toBe('def twice(x):\r\n    return 2 * x\r\n');

    // one Undo takes the whole import back
    await page.click('#tab-review');
    expect(await page.textContent('#timeline li.step.selected .badge')).toBe('import_files');
    await page.click('#undo');
    await page.waitForSelector('#file-tree li[data-path="logo.png"]', { state: 'detached' });
    expect(await treePaths()).not.toContain('lib/util.py');
    await page.click('#redo');
    await page.waitForSelector('#file-tree li[data-path="logo.png"]');
  });

  it('imports files dropped on the file panel', async () => {
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.items.add(new File(['dropped here\n'], 'dropped.txt', { type: 'text/plain' }));
      const panel = document.getElementById('files-panel')!;
      panel.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
      panel.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    await page.waitForSelector('#file-tree li[data-path="dropped.txt"]');
    expect(await page.getAttribute('#files-panel', 'class')).not.toContain('drop-target');
  });

  it('replays a transcript opened from disk, and names the line of a broken one', async () => {
    await page.click('#tab-replay');
    const lines =
      '{"tool": "write_file", "args": {"path": "from-disk.txt", "content": "1\\n"}}\n\n{"tool": "exists", "args": {"path": "from-disk.txt"}}\n';
    await page.setInputFiles('#replay-file', {
      name: 'mine.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from(lines),
    });
    await page.waitForFunction(() => document.getElementById('replay-source')!.textContent === 'mine.jsonl · 2 calls');
    await page.click('#replay-all');
    await page.waitForFunction(() => document.getElementById('replay-count')!.textContent === '2 / 2');
    expect(JSON.parse((await page.textContent('#envelope'))!)).toMatchObject({
      ok: true,
      result: { exists: true, type: 'file' },
    });
    await page.setInputFiles('#replay-file', {
      name: 'broken.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from('{"tool": "exists", "args": {}}\nnot json\n'),
    });
    await page.waitForSelector('.toast.error:has-text("broken.jsonl: line 2 is not JSON")');
    expect(await page.textContent('#replay-source')).toBe('mine.jsonl · 2 calls');
  });
}
