import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../agent/model-server.js';
import { runAgentTask } from './agent-steps.js';
import { shots, startPlayground, type Playground } from './playground.js';
import {
  callTool,
  heldPageAnswered,
  holdNextPage,
  nextLoad,
  openPreview,
  previewConsole,
  previewFrame,
  previewLoads,
  releaseHeldPage,
  takeAsked,
  watchAsked,
} from './preview-steps.js';

/**
 * The live preview: the workspace served by a Service Worker on its own origin, TSX turned into
 * JavaScript on the fly, reloaded after each change, and kept away from the playground's storage.
 */
const KEY = 'sk-e2e-key';
const page0 = {
  'index.html':
    '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><div id="root"></div><script type="module" src="app.tsx"></script></body></html>\n',
  'style.css': 'h1 { color: rgb(200, 30, 30); }\n',
  'app.tsx': [
    'const React = { createElement: (tag: string, _props: unknown, ...kids: string[]) => { const n = document.createElement(tag); n.append(...kids); return n; } };',
    "const title: string = 'Made by the agent';",
    "document.getElementById('root')!.append(<h1>{title}</h1>);",
    '',
  ].join('\n'),
};
let pg: Playground;
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer(
    {
      'preview-build': [
        { calls: Object.entries(page0).map(([path, content]) => ({ name: 'write_file', args: { path, content } })) },
        { text: 'The page is written.' },
      ],
      'preview-missing': [{ status: 404, message: 'model not found' }],
      'preview-look': [{ text: 'Nothing needs changing.' }],
      'preview-note': [
        { calls: [{ name: 'write_file', args: { path: 'agent-note.txt', content: 'from the agent\n' } }] },
        { text: 'Noted.' },
      ],
      'preview-edit': [
        {
          calls: [
            {
              name: 'edit_file',
              args: { path: 'app.tsx', old_text: "'Made by the agent'", new_text: "'Edited by the agent'" },
            },
          ],
        },
        { text: 'Edited.' },
      ],
    },
    { apiKey: KEY },
  );
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await server?.stop();
});

const heading = () => previewFrame(pg.page).locator('h1').textContent({ timeout: 15_000 });
const agent = (model: string, task: string) =>
  runAgentTask(pg.page, { api: 'openai', endpoint: `${server.url}/v1`, key: KEY, model }, task);

describe('the live preview', () => {
  it('shows what a scripted agent wrote, follows its edit, and an undo', async () => {
    const { page } = pg;
    expect(await agent('preview-build', 'Write a page.')).toBe('answered');
    // A pointer on the tab starts the bridge before the click: its frame is there while the pane is still hidden.
    await page.hover('#tab-preview');
    await page.waitForSelector('#pane-preview[hidden] iframe.preview-bridge', { state: 'attached' });
    await openPreview(page);
    expect(await heading()).toBe('Made by the agent');
    const color = await previewFrame(page)
      .locator('h1')
      .evaluate((h) => getComputedStyle(h).color);
    expect(color).toBe('rgb(200, 30, 30)');
    await page.screenshot({ path: join(shots, 'preview.png') });

    let loads = await previewLoads(page);
    expect(await agent('preview-edit', 'Change the title.')).toBe('answered');
    await nextLoad(page, loads);
    expect(await heading()).toBe('Edited by the agent');

    loads = await previewLoads(page);
    await page.click('#tab-review');
    await page.click('#undo');
    await nextLoad(page, loads);
    expect(await heading()).toBe('Made by the agent');
    expect(pg.foreignRequests.filter((url) => !url.startsWith(server.url))).toEqual([]);
  });

  it('serves fetch() of JSON, an image, a three-level import chain; reports a syntax error and a missing import', async () => {
    const { page } = pg;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAYAAAC56t6BAAAAEklEQVR4nGNgYPj/HwoZGBgYAEf2Bv3cnmWJAAAAAElFTkSuQmCC',
      'base64',
    );
    const folder = join(pg.base, 'img');
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'dot.png'), png);
    await page.setInputFiles('#import-input', folder);
    await page.waitForFunction(() =>
      [...document.querySelectorAll('#file-tree li')].some((li) => (li as HTMLElement).dataset.path === 'dot.png'),
    );
    const files: Record<string, string> = {
      'lab/index.html':
        '<!doctype html><html><head><title>lab</title></head><body><p id="data"></p><img id="img" src="/dot.png"><p id="chain"></p><script type="module" src="./main.ts"></script></body></html>',
      'lab/dot.png': '',
      'lab/data/info.json': '{"answer": 42}\n',
      'lab/main.ts':
        "import { second } from './lib/second.js';\nconst info: { answer: number } = await fetch('data/info.json').then((r) => r.json());\ndocument.getElementById('data')!.textContent = `answer ${info.answer}`;\ndocument.getElementById('chain')!.textContent = second();\nconst img = document.getElementById('img') as HTMLImageElement;\nawait img.decode();\ndocument.body.dataset.image = `${img.naturalWidth}x${img.naturalHeight}`;\n",
      'lab/lib/second.ts':
        "import { third } from '../deep/third';\nexport const second = (): string => `second>${third()}`;\n",
      'lab/deep/third.tsx': 'export function third(): string {\n  const n: number = 3;\n  return `third${n}`;\n}\n',
    };
    delete files['lab/dot.png'];
    for (const [path, content] of Object.entries(files))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    // The import drops the picked folder's name: the image lands at the root, and moves in beside the page.
    expect((await callTool(page, 'move_path', { from: 'dot.png', to: 'lab/dot.png' })).ok).toBe(true);
    await page.click('#tab-preview');
    await page.selectOption('#preview-root', 'lab');
    const frame = previewFrame(page);
    await frame.locator('body[data-image]').waitFor({ timeout: 15_000 });
    expect(await frame.locator('#data').textContent()).toBe('answer 42');
    expect(await frame.locator('#chain').textContent()).toBe('second>third3');
    expect(await frame.locator('body').getAttribute('data-image')).toBe('2x3');

    let loads = await previewLoads(page);
    await callTool(page, 'write_file', {
      path: 'lab/lib/second.ts',
      content: "import { third } from '../deep/third';\nexport function second(): string {\n  return third( + ;\n}\n",
    });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await page.waitForFunction(() => document.getElementById('preview-console')!.textContent!.includes('Syntax error'));
    expect(await previewConsole(page)).toContainEqual(
      expect.stringMatching(/^Syntax error in lab\/lib\/second\.ts:3:19: Unexpected token/),
    );

    loads = await previewLoads(page);
    await callTool(page, 'write_file', {
      path: 'lab/lib/second.ts',
      content: "import { pad } from 'left-pad-esm';\nexport const second = (): string => pad('x');\n",
    });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await page.waitForFunction(() => document.getElementById('preview-console')!.textContent!.includes('left-pad-esm'));
    expect(await previewConsole(page)).toContainEqual(
      "lab/lib/second.ts imports 'left-pad-esm', but the package 'left-pad-esm' is not installed: run npm install (or map it in the page's import map).",
    );

    // An ES module build in the workspace's node_modules satisfies it, through `exports`.
    loads = await previewLoads(page);
    await callTool(page, 'write_file', {
      path: 'node_modules/left-pad-esm/package.json',
      content: '{"name":"left-pad-esm","exports":{".":{"import":"./dist/pad.mjs","require":"./cjs.js"}}}',
    });
    await callTool(page, 'write_file', {
      path: 'node_modules/left-pad-esm/dist/pad.mjs',
      content: 'export const pad = (s) => `[${s}]`;\n',
    });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await frame.locator('#chain', { hasText: '[x]' }).waitFor({ timeout: 15_000 });
  });

  it("answers a page's linked files from what came with the page, and the next load after a change shows the new bytes", async () => {
    const { page } = pg;
    const app = (word: string) => `document.body.dataset.word = '${word}';\n`;
    const files: Record<string, string> = {
      'fresh/index.html':
        '<!doctype html><html><head><link rel="stylesheet" href="style.css"><link rel="stylesheet" href="/theme.css"></head><body><p id="p">text</p><script type="module" src="app.ts"></script></body></html>',
      'fresh/style.css': '#p { color: rgb(1, 2, 3); }\n',
      'fresh/theme.css': '#p { font-size: 21px; }\n',
      'fresh/app.ts': app('one'),
    };
    for (const [path, content] of Object.entries(files))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    // What reaches the workspace worker: with the files sent along with the page, only the page itself.
    await watchAsked(page);
    const asked = async () => (await takeAsked(page)).map((request) => request.path);
    await page.click('#tab-preview');
    await page.selectOption('#preview-root', 'fresh');
    const frame = previewFrame(page);
    const style = () =>
      frame.locator('#p').evaluate((p) => `${getComputedStyle(p).color} ${getComputedStyle(p).fontSize}`);
    await frame.locator('body[data-word="one"]').waitFor({ timeout: 15_000 });
    expect(await style()).toBe('rgb(1, 2, 3) 21px');
    expect(await asked()).not.toContain('app.ts');

    for (const [word, color, size] of [
      ['two', 'rgb(4, 5, 6)', '22px'],
      ['three', 'rgb(7, 8, 9)', '23px'],
    ] as const) {
      const loads = await previewLoads(page);
      await callTool(page, 'write_file', { path: 'fresh/app.ts', content: app(word) });
      await callTool(page, 'write_file', { path: 'fresh/style.css', content: `#p { color: ${color}; }\n` });
      await callTool(page, 'write_file', { path: 'fresh/theme.css', content: `#p { font-size: ${size}; }\n` });
      await page.click('#tab-preview');
      await nextLoad(page, loads);
      await frame.locator(`body[data-word="${word}"]`).waitFor({ timeout: 15_000 });
      // Three writes, three reloads: the last one shows all three files as written.
      await expect.poll(style, { timeout: 15_000 }).toBe(`${color} ${size}`);
    }
    // Only a file the page changed is new: the stylesheet alone, with the module as it was.
    const loads = await previewLoads(page);
    await callTool(page, 'write_file', { path: 'fresh/style.css', content: '#p { color: rgb(10, 11, 12); }\n' });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await expect.poll(style, { timeout: 15_000 }).toBe('rgb(10, 11, 12) 23px');
    expect(await frame.locator('body').getAttribute('data-word')).toBe('three');
    const lastAsked = await takeAsked(page);
    expect(lastAsked.length).toBeGreaterThan(0);
    expect(lastAsked.every((request) => request.path === '')).toBe(true);
    // and straight to the worker, on the direct channel, not through the bridge and this page
    expect(lastAsked.every((request) => request.via === 'channel')).toBe(true);

    // A change while the frame still waits for the page of the reload before it, read before the
    // change: Chromium drops a navigation to the URL the frame is navigating to (within ~3 s of
    // that one's start), so the panel reloads after that page has loaded instead.
    await holdNextPage(page);
    await callTool(page, 'write_file', { path: 'fresh/theme.css', content: '#p { font-size: 24px; }\n' });
    await heldPageAnswered(page);
    await callTool(page, 'write_file', { path: 'fresh/theme.css', content: '#p { font-size: 25px; }\n' });
    await releaseHeldPage(page);
    await page.click('#tab-preview');
    await expect.poll(style, { timeout: 15_000 }).toBe('rgb(10, 11, 12) 25px');
  });

  it("serves a page's module graph ahead with the page: only the page reaches the playground, and an edit deep in the graph shows in the next load", async () => {
    const { page } = pg;
    const files: Record<string, string> = {
      'graph/index.html':
        '<!doctype html><html><head></head><body><p id="p">text</p><script type="module" src="main.ts"></script></body></html>',
      'graph/main.ts': "import { a } from './lib/a';\nimport './lib/look.css';\ndocument.body.dataset.word = a();\n",
      'graph/lib/a.ts': "import { b } from '../deep/b.js';\nexport const a = (): string => `a-${b}`;\n",
      'graph/deep/b.ts': "export const b: string = 'one';\n",
      'graph/lib/look.css': '#p { color: rgb(1, 2, 3); }\n',
    };
    for (const [path, content] of Object.entries(files))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    await page.click('#tab-preview');
    await page.selectOption('#preview-root', 'graph');
    const frame = previewFrame(page);
    await frame.locator('body[data-word="a-one"]').waitFor({ timeout: 15_000 });
    // From here on, what reaches the workspace worker: with the graph sent along with the page, only the page.
    await watchAsked(page);
    await takeAsked(page);
    const asked = async () => (await takeAsked(page)).map((request) => request.path);
    const before = await previewLoads(page);
    await page.click('#preview-reload');
    await nextLoad(page, before);
    await frame.locator('body[data-word="a-one"]').waitFor({ timeout: 15_000 });
    await expect
      .poll(() => frame.locator('#p').evaluate((p) => getComputedStyle(p).color), { timeout: 15_000 })
      .toBe('rgb(1, 2, 3)');
    expect(await asked()).toEqual(['']);

    const loads = await previewLoads(page);
    await callTool(page, 'write_file', { path: 'graph/deep/b.ts', content: "export const b: string = 'two';\n" });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await frame.locator('body[data-word="a-two"]').waitFor({ timeout: 15_000 });
    const again = await asked();
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((path) => path === '')).toBe(true);
  });

  for (const [backend, label] of [
    ['opfs', 'OPFS'],
    ['indexeddb', 'IndexedDB'],
  ] as const) {
    it(`comes back after a reload of the playground on ${label}, showing the sample project's page`, async () => {
      const { page } = pg;
      const name = `e2e-preview-${backend}`;
      await page.fill('#ws-name', name);
      await page.selectOption('#backend', backend);
      await page.waitForFunction((s) => document.getElementById('status')!.textContent === s, `${label} · ${name}`);
      await page.click('#seed-sample');
      await page.waitForFunction(() => document.getElementById('editor-path')!.textContent === 'README.md');
      await page.click('#tab-preview');
      await previewFrame(page).locator('h1', { hasText: 'Hello, world!' }).waitFor({ timeout: 15_000 });
      expect(await previewFrame(page).locator('p.note').textContent()).toContain('hello-sandpit 0.1.0');
      await page.reload();
      await pg.waitReady();
      // The preview was open, so it opens again, on the same workspace, with nothing clicked.
      await previewFrame(page).locator('h1', { hasText: 'Hello, world!' }).waitFor({ timeout: 15_000 });
      expect(await page.getAttribute('#tab-preview', 'aria-selected')).toBe('true');
    });
  }

  it('keeps the previewed code away from the playground: no storage of its, no calls into the workspace', async () => {
    const { page } = pg;
    // The playground itself holds all three kinds of storage now (the last two tests made them).
    const own = await page.evaluate(async () => {
      const opfs: string[] = [];
      for await (const [name] of ((await navigator.storage.getDirectory()) as any).entries()) opfs.push(name);
      return {
        key: localStorage.getItem('sandpit.demo.workspace'),
        databases: (await indexedDB.databases()).map((d) => d.name),
        opfs,
      };
    });
    expect(own.key).toContain('indexeddb');
    expect(own.databases.length).toBeGreaterThan(0);
    expect(own.opfs.length).toBeGreaterThan(0);
    const probe = [
      'const out = {};',
      'out.keys = Object.keys(localStorage);',
      'out.databases = (await indexedDB.databases()).map((d) => d.name);',
      'out.opfs = [];',
      'for await (const [name] of (await navigator.storage.getDirectory()).entries()) out.opfs.push(name);',
      "const write = { path: 'pwned.txt', content: 'x' };",
      "const tries = [{ type: 'call', tool: 'write_file', args: write }, { id: 'p', type: 'APPLY', path: ['call'], argumentList: [{ type: 'RAW', value: 'write_file' }, { type: 'RAW', value: write }] }];",
      "for (const message of tries) parent.postMessage(message, '*');",
      // The bridge is a sibling frame on this origin: reach into it and post as it would.
      'out.frames = parent.frames.length;',
      'for (let i = 0; i < parent.frames.length; i++) {',
      "  try { for (const message of tries) parent.frames[i].parent.postMessage(message, '*'); parent.frames[i].eval?.(`parent.postMessage(${JSON.stringify(tries[0])}, '*')`); } catch (e) { out.bridgeError = String(e); }",
      '}',
      "out.shadow = (await fetch('/@fs/.sandpit/config')).status;",
      "out.above = (await fetch('/@fs/%2E%2E/%2E%2E/etc/passwd')).status;",
      'document.body.dataset.result = JSON.stringify(out);',
    ].join('\n');
    expect(
      (
        await callTool(page, 'write_file', {
          path: 'probe/index.html',
          content:
            '<!doctype html><html><head></head><body><script type="module" src="probe.js"></script></body></html>',
        })
      ).ok,
    ).toBe(true);
    expect((await callTool(page, 'write_file', { path: 'probe/probe.js', content: probe })).ok).toBe(true);
    await page.click('#tab-preview');
    await page.selectOption('#preview-root', 'probe');
    const result = JSON.parse(
      (await previewFrame(page).locator('body[data-result]').getAttribute('data-result', { timeout: 15_000 }))!,
    );
    expect(result.keys).toEqual([]);
    for (const name of own.databases) expect(result.databases).not.toContain(name);
    for (const name of own.opfs) expect(result.opfs).not.toContain(name);
    expect(result.frames).toBeGreaterThan(0);
    expect(result.shadow).toBe(404);
    expect(result.above).toBe(404);
    await page.waitForTimeout(300);
    const exists = await callTool(page, 'exists', { path: 'pwned.txt' });
    expect(exists.result.exists).toBe(false);
    expect(await page.getAttribute('#preview-frame', 'sandbox')).toBe('allow-scripts allow-forms allow-same-origin');
  });

  it('6 (issue 26): a run that fails at once adds no snapshot, leaves Undo run off, and names its error once', async () => {
    const { page } = pg;
    const before = await page.textContent('#timeline-count');
    expect(await agent('preview-missing', 'Anything.')).toBe('error');
    expect(await page.textContent('#timeline-count')).toBe(before);
    expect(await page.isDisabled('#agent-undo')).toBe(true);
    const code = (await page.getAttribute('#agent-log li.agent-error', 'data-code'))!;
    const text = (await page.textContent('#pane-agent'))!;
    expect(text.split(code).length - 1).toBe(1);
  });

  it('6 (issue 26): a run that changes nothing leaves Undo run off; Undo run names the Review button that brings the run back, which does', async () => {
    const { page } = pg;
    expect(await agent('preview-look', 'Only look.')).toBe('answered');
    await page.waitForFunction(() => (document.getElementById('agent-undo') as HTMLButtonElement).disabled);

    expect(await agent('preview-note', 'Leave a note.')).toBe('answered');
    await page.waitForFunction(() => !(document.getElementById('agent-undo') as HTMLButtonElement).disabled);
    await page.click('#agent-undo');
    await page.waitForFunction(() => document.getElementById('agent-status')!.textContent!.startsWith('undone'));
    expect((await callTool(page, 'exists', { path: 'agent-note.txt' })).result.exists).toBe(false);
    // The status says which button in Review brings the run back: that one is on, and it does.
    const said = (await page.textContent('#agent-status'))!;
    expect(said).toContain('Undo in Review brings the run back');
    await page.click('#tab-review');
    expect(await page.isDisabled('#undo')).toBe(false);
    await page.click('#undo');
    await page.waitForSelector('#file-tree li[data-path="agent-note.txt"]');
    expect((await callTool(page, 'read_file', { path: 'agent-note.txt' })).result.content).toBe('from the agent\n');
  });
});
