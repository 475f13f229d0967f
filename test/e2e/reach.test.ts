import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialog } from 'playwright-core';
import { sampleFiles } from '../../demo/files/sample-files.js';
import { startPlayground, type Playground } from './playground.js';
import { AXE_IN_PAGE, putAxeInPage } from './axe-in-page.js';
import { keyboardWalk } from './keyboard-walk.js';
import { callTool } from './preview-steps.js';

/**
 * Issue 26: files that are not text open in a viewer, every control is reachable and named from
 * the keyboard, and no panel has a serious or critical axe finding; then, on the same page, text,
 * shortcuts and toasts a person can read. The screenshots in docs/ are made in doc-shots.test.ts,
 * on a workspace of their own.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const page = () => pg.page;

/** Which side tab is selected, which panes are shown, and whether '#tool' has a box: for a failure's message. */
function sidePanelState() {
  return page().evaluate(() => {
    const tool = document.getElementById('tool');
    const box = tool?.getBoundingClientRect();
    return {
      selected: [...document.querySelectorAll('.side [role="tab"][aria-selected="true"]')].map((t) => t.id),
      shown: [...document.querySelectorAll<HTMLElement>('.side [role="tabpanel"]')]
        .filter((p) => !p.hidden)
        .map((p) => p.id),
      tool: box ? { width: box.width, height: box.height, display: getComputedStyle(tool!).display } : null,
      active: document.activeElement?.id ?? null,
      dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.id),
    };
  });
}
const PANES = ['console', 'review', 'replay', 'agent', 'git', 'preview'];
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGNgYPj/HwoZGBgYAEf2Bv3cnmWJAAAAAElFTkSuQmCC',
  'base64',
);
const blob = Buffer.from([0, 1, 2, 3, 0xff, 0x41, 0x42, 0, 0x10]);
const latin1 = Buffer.from('caf\xe9\n', 'latin1');

describe('files that are not text, and every control within reach', () => {
  it('10: opens an image as an image, bytes as hex with size and sha256, and latin1 text in a picked encoding, saved back in it', async () => {
    const folder = join(pg.base, 'binaries');
    await mkdir(join(folder, 'inner'), { recursive: true });
    await writeFile(join(folder, 'inner', 'dot.png'), png);
    await writeFile(join(folder, 'inner', 'blob.bin'), blob);
    await writeFile(join(folder, 'inner', 'old.txt'), latin1);
    await page().setInputFiles('#import-input', folder);
    await page().waitForSelector('#file-tree li[data-path="inner/old.txt"]');

    await page().click('#file-tree li[data-path="inner/dot.png"]');
    await page().waitForSelector('#editor .viewer-image');
    expect(
      await page().$eval('#editor .viewer-image', (img) =>
        (img as HTMLImageElement).decode().then(() => (img as HTMLImageElement).naturalWidth),
      ),
    ).toBe(2);
    expect(await page().textContent('#editor-lang')).toBe('Image');

    await page().click('#file-tree li[data-path="inner/blob.bin"]');
    await page().waitForSelector('#editor .viewer-hex');
    expect(await page().textContent('#editor .viewer-hex')).toContain('00000000  00 01 02 03 ff 41 42 00 10');
    expect(await page().textContent('#editor .viewer-facts')).toBe(
      `9 B · sha256 ${createHash('sha256').update(blob).digest('hex')}`,
    );

    await page().click('#file-tree li[data-path="inner/old.txt"]');
    await page().waitForSelector('#viewer-encoding');
    await page().selectOption('#viewer-encoding', 'latin1');
    await page().click('.viewer-encoding button');
    await page().waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent?.includes('café'));
    await page().click('#editor .cm-content');
    await page().keyboard.press('Control+End');
    await page().keyboard.type('crème\n');
    await page().keyboard.press('Control+s');
    await page().waitForFunction(() => (document.getElementById('save') as HTMLButtonElement).disabled);
    const bytes = await callTool(page(), 'file_bytes', { path: 'inner/old.txt' });
    expect(bytes.result.sha256).toBe(
      createHash('sha256').update(Buffer.from('caf\xe9\ncr\xe8me\n', 'latin1')).digest('hex'),
    );
    // a tool's change to it reloads the text as opened, not the read-only viewer (it flipped back,
    // and a late flip once covered the next file's viewer)
    await callTool(page(), 'write_file', { path: 'inner/old.txt', content: 'caf\xe9\nplus\n', encoding: 'latin1' });
    await page().waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent?.includes('plus'));
    expect(await page().$('#viewer-encoding')).toBeNull();
    expect(pg.pageErrors).toEqual([]);
  });

  it('10: UTF-16 text without a byte-order mark is offered as text in its guessed order, and saved back the same', async () => {
    const utf16 = Buffer.from('héllo\nwörld\n', 'utf16le');
    await mkdir(join(pg.base, 'wide'), { recursive: true });
    await writeFile(join(pg.base, 'wide', 'wide.txt'), utf16);
    await page().setInputFiles('#import-input', join(pg.base, 'wide'));
    await page().waitForSelector('#file-tree li[data-path="wide.txt"]');
    // The text tools call it binary (NUL bytes); the viewer knows better and says which order.
    expect((await callTool(page(), 'read_file', { path: 'wide.txt' })).error.code).toBe('BINARY_FILE');
    await page().click('#file-tree li[data-path="wide.txt"]');
    await page().waitForSelector('#viewer-encoding');
    expect(await page().textContent('.viewer-encoding label')).toContain('UTF-16 LE text without a byte-order mark');
    expect(await page().inputValue('#viewer-encoding')).toBe('utf-16le');
    await page().click('.viewer-encoding button');
    await page().waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent?.includes('wörld'));
    await page().click('#editor .cm-content');
    await page().keyboard.press('Control+End');
    await page().keyboard.type('ça\n');
    await page().keyboard.press('Control+s');
    await page().waitForFunction(() => (document.getElementById('save') as HTMLButtonElement).disabled);
    const bytes = await callTool(page(), 'file_bytes', { path: 'wide.txt' });
    expect(bytes.result.sha256).toBe(
      createHash('sha256').update(Buffer.from('héllo\nwörld\nça\n', 'utf16le')).digest('hex'),
    );
    expect(pg.pageErrors).toEqual([]);
  });

  it('5: Import folder and Open a .jsonl are buttons; Ctrl+Enter runs from a field or a select; Ctrl+S saves from the tree', async () => {
    expect(await page().evaluate(() => document.getElementById('import-folder')!.tagName)).toBe('BUTTON');
    await page().click('#tab-replay');
    expect(await page().evaluate(() => document.getElementById('replay-open')!.tagName)).toBe('BUTTON');
    await page().click('#tab-console');
    // once in two fresh clones' runs (session 31) '#tool' stayed hidden 20 s after this click: say what the page showed
    await page()
      .selectOption('#tool', 'exists')
      .catch(async (error: Error) => {
        throw new Error(`${error.message.split('\n')[0]}; the page then: ${JSON.stringify(await sidePanelState())}`);
      });
    await page().fill('#arg-path', 'inner/old.txt');
    await page().$eval('#envelope', (n) => {
      n.textContent = '';
    });
    await page().press('#arg-path', 'Control+Enter');
    await page().waitForFunction(() => document.getElementById('envelope')!.textContent!.includes('"exists": true'));
    await page().$eval('#envelope', (n) => {
      n.textContent = '';
    });
    await page().press('#tool', 'Control+Enter');
    await page().waitForFunction(() => document.getElementById('envelope')!.textContent !== '');

    await callTool(page(), 'write_file', { path: 'note.md', content: 'note\n' });
    await page().click('#file-tree li[data-path="note.md"]');
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'note.md');
    await page().click('#editor .cm-content');
    await page().keyboard.type('more ');
    await page().focus('#file-tree li[data-path="note.md"]');
    await page().keyboard.press('Control+s');
    await page().waitForFunction(() => (document.getElementById('save') as HTMLButtonElement).disabled);
  });

  it('16: Form and JSON are toggle buttons (aria-pressed), not tabs without a role', async () => {
    expect(await page().getAttribute('#mode-form', 'aria-pressed')).toBe('true');
    expect(await page().getAttribute('#mode-form', 'aria-selected')).toBeNull();
    expect(await page().getAttribute('#mode-json', 'aria-pressed')).toBe('false');
  });

  // The header, the file panel, the editor and the side panel's tabs, in the order Tab meets them.
  const TOP = 'header.top, #files-panel, .editor-panel, .side .tabs';

  it("walks every panel with the keyboard: each control is reached by Tab or its widget's arrows, and has an accessible name", async () => {
    // A folder of files, the last one open: Tab reaches one tree item and one timeline entry,
    // and only the arrows reach the others; the open file's text is a control walked too.
    for (const name of ['a', 'b'])
      await callTool(page(), 'write_file', { path: `walk/${name}.md`, content: `${name}\n` });
    await page().click('#file-tree li[data-path="walk/b.md"]');
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'walk/b.md');
    const cdp = await pg.context.newCDPSession(page());
    try {
      await page().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const top = await keyboardWalk(page(), cdp, TOP);
      // The walk saw the parts it is about: a tree item per shown file and a tab per panel.
      expect(top.wanted).toEqual(
        expect.arrayContaining([
          'button#import-folder',
          'li[walk]',
          'li[walk/a.md]',
          'button#tab-git',
          'div "Editing walk/b.md"',
        ]),
      );
      expect(top.wanted.filter((w) => w.startsWith('li['))).toHaveLength(
        await page().$$eval('#file-tree li[data-path]', (items) => items.length),
      );
      expect({ part: 'top', missed: top.missed }).toEqual({ part: 'top', missed: [] });
      const unnamed = [...top.unnamed];
      for (const pane of PANES) {
        await page().click(`#tab-${pane}`);
        await page().waitForTimeout(200);
        await page().focus(`#tab-${pane}`);
        const walk = await keyboardWalk(page(), cdp, `#pane-${pane}`);
        expect({ pane, missed: walk.missed }).toEqual({ pane, missed: [] });
        unnamed.push(...walk.unnamed);
      }
      expect(unnamed).toEqual([]);
    } finally {
      await cdp.detach();
    }
  });

  it('the walk names a control Tab cannot reach (a header button taken out of the tab order)', async () => {
    const cdp = await pg.context.newCDPSession(page());
    try {
      await page().$eval('#export', (button) => {
        button.tabIndex = -1;
      });
      await page().evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const top = await keyboardWalk(page(), cdp, 'header.top');
      expect(top.missed).toEqual(['button#export']);
    } finally {
      await page().$eval('#export', (button) => button.removeAttribute('tabindex'));
      await cdp.detach();
    }
  });

  // Six axe scans: about 20 s on an idle machine, so a loaded one gets room. Each runs in the
  // page itself (legacy mode): the default gathers the frames' results in a blank page it opens and
  // closes per scan, a renderer each time, about a third of the scans' CPU. The only frames it would add
  // are the preview's, on another origin, which the scan leaves out either way; the findings were
  // the same in both modes, rule by rule and node by node, in every panel.
  //
  // The first scan takes the whole page with the first pane open; a tab switch changes only the
  // side panel (its tabs and the pane shown) and, if anything, the toasts, so each later scan takes
  // those. axe-core is put in the page's own frame once, by the test (axe-in-page.ts): the builder's
  // own injection made the first scan cost about four times a later one, for frames the scans exclude.
  // Only the violations are asserted, so only they are gathered in full (`resultTypes`): axe still
  // runs every rule on every node, and keeps one node of each other kind of result instead of a
  // selector and a snippet for every node that passed. Checked when this changed: the same
  // violations, incomplete results, passes (node by node) and inapplicable rules in every panel with
  // axe-core put in once as with the builder's own injection.
  it('has no serious or critical axe-core finding in any panel', async () => {
    await putAxeInPage(page());
    for (const [i, pane] of PANES.entries()) {
      await page().click(`#tab-${pane}`);
      await page().waitForTimeout(300);
      const scan = new AxeBuilder({ page: page(), axeSource: AXE_IN_PAGE });
      if (i > 0) scan.include('.side').include('#toasts');
      scan.setLegacyMode(true).options({ resultTypes: ['violations'] });
      const results = await scan.exclude('#preview-frame').exclude('.preview-bridge').analyze();
      const bad = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${v.id}: ${v.nodes
              .slice(0, 3)
              .map((n) => n.target.join(' '))
              .join(', ')}`,
        );
      expect({ pane, bad }).toEqual({ pane, bad: [] });
    }
  }, 120_000);

  it("13: error summaries keep a quoted line's spaces, name each line once, and a stale save names no hashes", async () => {
    await callTool(page(), 'write_file', { path: 'amb.txt', content: 'x x\ny\nx\n' });
    const ambiguous = await callTool(page(), 'edit_file', { path: 'amb.txt', old_text: 'x', new_text: 'z' });
    expect(ambiguous.error.message).toBe("old_text occurs 3 times in 'amb.txt', on lines 1 (twice) and 3");
    expect(await page().textContent('#summary .message')).toContain('on lines 1 (twice) and 3');
    await callTool(page(), 'write_file', { path: 'sp.txt', content: 'a  b\n' });
    const conflict = await callTool(page(), 'apply_patch', {
      patch: '*** Begin Patch\n*** Update File: sp.txt\n@@\n-a    b\n+c\n*** End Patch\n',
    });
    expect(conflict.error.code).toBe('PATCH_CONFLICT');
    expect(conflict.error.message).toContain('a    b');
    // What a person reads is the message as sent: the quoted line keeps its four spaces.
    expect(await page().$eval('#summary .message', (n) => (n as HTMLElement).innerText)).toBe(conflict.error.message);

    await callTool(page(), 'write_file', { path: 'stale.md', content: 'one\n' });
    await page().click('#file-tree li[data-path="stale.md"]');
    await page().waitForFunction(() => document.getElementById('editor-path')!.textContent === 'stale.md');
    await page().click('#editor .cm-content');
    await page().keyboard.type('mine ');
    await callTool(page(), 'write_file', { path: 'stale.md', content: 'theirs\n' });
    await page().evaluate(() => document.querySelectorAll('.toast').forEach((t) => t.remove()));
    await page().click('#save');
    await page().waitForSelector('.toast.error');
    const text = (await page().textContent('.toast.error'))!;
    expect(text).toContain('changed since you opened it');
    expect(text).not.toMatch(/[0-9a-f]{64}/);
    await page().click('.toast.error');
    expect(await page().$$('.toast.error')).toHaveLength(0);
  });

  it('15: at 800x700 the page scrolls as one and Push is reached by it', async () => {
    await page().setViewportSize({ width: 800, height: 700 });
    await page().click('#tab-git');
    await page().fill('#git-url', 'http://127.0.0.1:9/r.git');
    const pane = await page().$eval('#pane-git', (p) => ({
      inner: p.scrollHeight - p.clientHeight,
      overflow: getComputedStyle(p).overflowY,
    }));
    expect(pane.inner).toBeLessThanOrEqual(1);
    const side = await page().$eval('.side', (p) => p.scrollHeight - p.clientHeight);
    expect(side).toBeLessThanOrEqual(1);
    await page().locator('#git-push').scrollIntoViewIfNeeded();
    expect(await page().locator('#git-push').isVisible()).toBe(true);
    await page().setViewportSize({ width: 1440, height: 900 });
  });
});

describe('text, shortcuts and toasts a person can read', () => {
  // Issue 26 item 15 in full: every visible text at 12 px or more and counted in words, a shortcut
  // bar that names the shortcuts there are, and error toasts that are short, go on a click and
  // cover neither the Git result nor the console output, at both sizes a person tried. On this
  // file's page (a file and a page of its own cost about 3 CPU-seconds), in a workspace of its own.
  beforeAll(async () => {
    // The stale-save step above leaves an edit unsaved on purpose: say yes to dropping it, and to
    // leaving the Memory workspace, while moving to a fresh one.
    const yes = (dialog: Dialog) => void dialog.accept();
    page().on('dialog', yes);
    try {
      await page().fill('#ws-name', 'e2e-legibility');
      await page().selectOption('#backend', 'memory');
      await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-legibility');
    } finally {
      page().off('dialog', yes);
    }
    await page().evaluate(() => document.getElementById('toasts')!.replaceChildren());
    // Something in every panel: files in the tree, steps in Review, a diff, an envelope.
    for (const [path, content] of Object.entries(sampleFiles))
      await callTool(page(), 'write_file', { path, content: String(content) });
    await page().click('#file-tree li[data-path="src/page.tsx"]');
  }, 180_000);

  it('15: no visible text anywhere is under 12 px or counts in "(s)", in any panel, at either size', async () => {
    const small: string[] = [];
    for (const [width, height] of [
      [1400, 900],
      [800, 700],
    ] as const) {
      await page().setViewportSize({ width, height });
      for (const pane of PANES) {
        await page().click(`#tab-${pane}`);
        await page().waitForTimeout(150);
        small.push(
          ...(await page().evaluate((size) => {
            const found: string[] = [];
            const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
            for (let text = walker.nextNode(); text; text = walker.nextNode()) {
              const host = text.parentElement;
              if (
                !host ||
                !text.textContent!.trim() ||
                host.closest('#preview-frame, [hidden], script, style') ||
                host.offsetParent === null
              )
                continue;
              const px = parseFloat(getComputedStyle(host).fontSize);
              // Counted words as a person reads them: "1 file", never "file(s)" or "1 files".
              if (/\w\(s\)|\b1 (files|calls|steps|tokens|changes|paths|lines|snapshots)\b/.test(text.textContent!))
                found.push(`${size} wording "${text.textContent!.trim().slice(0, 60)}"`);
              if (px < 12)
                found.push(
                  `${size} ${host.tagName.toLowerCase()}.${host.className} "${text.textContent!.trim().slice(0, 20)}" ${px.toFixed(1)}px`,
                );
            }
            return found;
          }, `${width}x${height}`)),
        );
      }
    }
    expect([...new Set(small)]).toEqual([]);
    await page().setViewportSize({ width: 1440, height: 900 });
  });

  it('15: the shortcut bar names the real shortcuts: Alt+1 to Alt+N reach each of the N tabs', async () => {
    const tabs = await page().$$eval('.side [role="tab"]', (nodes) => nodes.map((n) => n.id));
    const bar = (await page().textContent('.shortcuts'))!.replace(/\s+/g, '');
    expect(bar).toContain(`Alt+1–${tabs.length}panels`);
    for (const [i, id] of tabs.entries()) {
      await page().focus('#file-tree');
      await page().keyboard.press(`Alt+${i + 1}`);
      expect(await page().getAttribute(`#${id}`, 'aria-selected')).toBe('true');
    }
    for (const shortcut of ['Ctrl+Ssave', 'Alt+Nnewfile', 'Alt+Zundo', 'F2renames', 'Deldeletes'])
      expect(bar).toContain(shortcut);
    await page().click('#tab-console');
  });

  it('15: an error toast is short, goes on a click, and covers neither the Git result nor the console output', async () => {
    for (const [width, height] of [
      [1400, 900],
      [800, 700],
    ] as const) {
      await page().setViewportSize({ width, height });
      await page().evaluate(() => document.getElementById('toasts')!.replaceChildren());
      await page().click('#tab-git');
      await page().fill('#git-url', 'http://127.0.0.1:9/r.git');
      await page().click('#git-clone');
      await page().waitForSelector('.toast.error');
      // Held under the pointer, as a slow reader holds it: the page lets an error go after 6 s, and a
      // loaded machine once spent longer on the steps below.
      await page().hover('.toast.error');
      await page().locator('#git-result').scrollIntoViewIfNeeded();
      const overlap = (a: { x: number; y: number; width: number; height: number } | null, b: typeof a) =>
        Boolean(a && b && a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height);
      const toastBox = await page().locator('.toast.error').boundingBox();
      expect({ width, covers: overlap(toastBox, await page().locator('#git-result').boundingBox()) }).toEqual({
        width,
        covers: false,
      });
      expect({ width, covers: overlap(toastBox, await page().locator('#git-summary').boundingBox()) }).toEqual({
        width,
        covers: false,
      });
      expect((await page().textContent('.toast.error'))!.length).toBeLessThan(90);
      await page().click('.toast.error');
      expect(await page().$$('.toast.error')).toHaveLength(0);

      await page().evaluate(() => document.getElementById('toasts')!.replaceChildren());
      await callTool(page(), 'read_file', { path: 'no/such/file.txt' });
      // Where a toast lands while the console shows an envelope: a probe in the toasts' place.
      await page().locator('#envelope').scrollIntoViewIfNeeded();
      const consoleBox = await page().locator('#envelope').boundingBox();
      await page().evaluate(() => {
        const t = document.createElement('div');
        t.className = 'toast error';
        t.textContent = 'Could not delete a.txt: NOT_FOUND';
        document.getElementById('toasts')!.append(t);
      });
      expect({ width, covers: overlap(await page().locator('.toast.error').boundingBox(), consoleBox) }).toEqual({
        width,
        covers: false,
      });
      await page().evaluate(() => document.getElementById('toasts')!.replaceChildren());
    }
    await page().setViewportSize({ width: 1440, height: 900 });
  });

  it('26 plain words: each failure toast says what to do next, and closes with its button or Escape', async () => {
    const toastText = async () => (await page().textContent('#toasts .toast.error .toast-text'))!;
    const clear = () => page().evaluate(() => document.getElementById('toasts')!.replaceChildren());
    await page().fill('#ws-name', 'e2e-toasts');
    await page().selectOption('#backend', 'memory');
    await page().waitForFunction(() => document.getElementById('status')!.textContent === 'Memory · e2e-toasts');

    // Review's Undo, once past the oldest step: said as a person's dead end, with the way around it.
    await callTool(page(), 'write_file', { path: 'a.txt', content: 'a\n' });
    await callTool(page(), 'write_file', { path: 'b.txt', content: 'b\n' });
    await page().click('#tab-review');
    for (let i = 0; i < 2; i++) {
      await clear();
      await page().click('#undo');
      await page().waitForSelector('#toasts .toast');
    }
    await page().waitForFunction(() => !document.querySelector('#file-tree li[data-path="a.txt"]'));
    await clear();
    await page().click('#undo');
    await page().waitForSelector('#toasts .toast.error');
    expect(await toastText()).toBe(
      'Nothing more to undo: this is the oldest step kept. To go to another, pick it in the timeline and Restore it.',
    );
    expect(await toastText()).not.toMatch(/NOT_FOUND|list_snapshots/);

    // A move onto a name that is taken: the next step is to pick another.
    await page().click('#redo');
    await page().waitForSelector('#file-tree li[data-path="a.txt"]');
    await callTool(page(), 'write_file', { path: 'b.txt', content: 'b\n' });
    await clear();
    page().once('dialog', (dialog) => void dialog.accept('b.txt'));
    await page().focus('#file-tree li[data-path="a.txt"]');
    await page().keyboard.press('F2');
    await page().waitForSelector('#toasts .toast.error');
    expect(await toastText()).toMatch(
      /^Could not move a\.txt: .+\. Pick another name, or delete or rename the one that is there first\.$/,
    );

    // The close button is named and closes it; Escape closes the newest from anywhere.
    const close = page().locator('#toasts .toast.error .toast-close');
    expect(await close.getAttribute('aria-label')).toBe('Close this message');
    await close.click();
    expect(await page().$$('#toasts .toast')).toHaveLength(0);
    await page().focus('#file-tree li[data-path="a.txt"]');
    page().once('dialog', (dialog) => void dialog.accept('b.txt'));
    await page().keyboard.press('F2');
    await page().waitForSelector('#toasts .toast.error');
    await page().keyboard.press('Escape');
    expect(await page().$$('#toasts .toast.error')).toHaveLength(0);

    // A transcript that is not one: which line, and what to do about it.
    await page().click('#tab-replay');
    await page().setInputFiles('#replay-file', {
      name: 'broken.jsonl',
      mimeType: 'application/jsonl',
      buffer: Buffer.from('not json\n'),
    });
    await page().waitForSelector('#toasts .toast.error');
    expect(await toastText()).toMatch(
      /^broken\.jsonl: line 1 is not JSON.*\. It cannot be replayed: fix that line and open it again, or open another transcript\.$/,
    );
    await clear();
  });
});
