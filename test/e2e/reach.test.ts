import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, type Playground } from './playground.js';
import { keyboardWalk } from './keyboard-walk.js';
import { callTool } from './preview-steps.js';

/**
 * Issue 26: files that are not text open in a viewer, every control is reachable and named from
 * the keyboard, and no panel has a serious or critical axe finding. The screenshots in docs/ are
 * made in doc-shots.test.ts, on a workspace of their own.
 */
let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const page = () => pg.page;
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
    await page().selectOption('#tool', 'exists');
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

  // Six full axe scans: about 20 s on an idle machine, so a loaded one gets room. Each runs in the
  // page itself (legacy mode): the default gathers the frames' results in a blank page it opens and
  // closes per scan, a renderer each time, about a third of the scans' CPU. The only frames it would add
  // are the preview's, on another origin, which the scan leaves out either way; the findings were
  // the same in both modes, rule by rule and node by node, in every panel.
  it('has no serious or critical axe-core finding in any panel', async () => {
    for (const pane of PANES) {
      await page().click(`#tab-${pane}`);
      await page().waitForTimeout(300);
      const results = await new AxeBuilder({ page: page() })
        .setLegacyMode(true)
        .exclude('#preview-frame')
        .exclude('.preview-bridge')
        .analyze();
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
