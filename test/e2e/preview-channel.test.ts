import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlayground, type Playground } from './playground.js';
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
 * The preview's direct channel: the Service Worker asks the workspace worker for each file itself,
 * not through the bridge page and the playground's main thread. The playground counts on the
 * frame (`data-bridged`) each request that still came over the bridge; the Service Worker's own
 * messages, watched by the test, say which way each went. The bridge stays the way back when the
 * channel is lost: a Service Worker the browser stopped, a backend switch (a new workspace worker).
 */
const app = (word: string) => ({
  'index.html':
    '<!doctype html><html><head><link rel="stylesheet" href="style.css"></head><body><p id="p">text</p><script type="module" src="main.ts"></script></body></html>',
  'style.css': '#p { color: rgb(1, 2, 3); }\n',
  'main.ts': "import { word } from './lib/word';\ndocument.body.dataset.word = word;\n",
  'lib/word.ts': `export const word: string = '${word}';\n`,
});

let pg: Playground;
beforeAll(async () => {
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const bridged = () => pg.page.$eval('#preview-frame', (frame) => Number((frame as HTMLElement).dataset.bridged ?? 0));
const shows = (word: string) => previewFrame(pg.page).locator(`body[data-word="${word}"]`).waitFor({ timeout: 15_000 });

/** Write `lib/word.ts` and wait for the reload that shows it. */
async function save(word: string): Promise<void> {
  const loads = await previewLoads(pg.page);
  expect((await callTool(pg.page, 'write_file', { path: 'lib/word.ts', content: app(word)['lib/word.ts'] })).ok).toBe(
    true,
  );
  await pg.page.click('#tab-preview');
  await nextLoad(pg.page, loads);
  await shows(word);
}

describe("the preview's direct channel", () => {
  it('answers the first preview and every save on the channel, none over the bridge', async () => {
    const { page } = pg;
    for (const [path, content] of Object.entries(app('one')))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    await openPreview(page);
    await shows('one');
    // The page, the stylesheet and both modules of the first preview: none came over the bridge.
    expect(await bridged()).toBe(0);
    expect(await page.$eval('#preview-frame', (frame) => (frame as HTMLElement).dataset.channel ?? '')).not.toBe('');
    await watchAsked(page);
    await save('two');
    await save('three');
    const asked = await takeAsked(page);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((request) => request.via !== 'channel')).toEqual([]);
    expect(await bridged()).toBe(0);
  });

  it('shows in the panel the problems the worker finds on the channel: an import that does not resolve', async () => {
    const { page } = pg;
    const loads = await previewLoads(page);
    await callTool(page, 'write_file', {
      path: 'lib/word.ts',
      content: "import { pad } from 'no-such-package';\nexport const word: string = pad('x');\n",
    });
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await page.waitForFunction(() =>
      document.getElementById('preview-console')!.textContent!.includes('no-such-package'),
    );
    expect(await previewConsole(page)).toContainEqual(
      "lib/word.ts imports 'no-such-package', but the package 'no-such-package' is not installed: run npm install (or map it in the page's import map).",
    );
    expect(await bridged()).toBe(0);
    await save('four');
  });

  /** Save `first` and see it come over the bridge, then wait for a new channel and see `next` come on it. */
  async function bridgedThenNewChannel(first: string, next: string[]): Promise<void> {
    const { page } = pg;
    const before = await bridged();
    const channel = await page.$eval('#preview-frame', (frame) => (frame as HTMLElement).dataset.channel);
    await save(first);
    expect(await bridged()).toBeGreaterThan(before);
    await page.waitForFunction(
      (old) => (document.getElementById('preview-frame') as HTMLElement).dataset.channel !== old,
      channel,
    );
    const after = await bridged();
    for (const word of next) await save(word);
    expect(await bridged()).toBe(after);
  }

  it('comes back over the bridge after the browser stops the Service Worker, then on a new channel', async () => {
    const { page } = pg;
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    // The restarted Service Worker has no channel: the page comes over the bridge, with the new bytes;
    // then the playground hands it a new channel, and the next saves go on it.
    await bridgedThenNewChannel('five', ['six', 'seven']);
    await cdp.detach();
  });

  it("answers over the bridge when the worker at the channel's end is gone, then makes a new channel", async () => {
    const { page } = pg;
    // A channel whose far end nobody answers, handed to the Service Worker as the playground does.
    await page.evaluate(() => {
      const bridge = document.querySelector<HTMLIFrameElement>('iframe.preview-bridge')!;
      const url = new URL(bridge.src);
      const dead = new MessageChannel();
      (window as unknown as { deadEnd: MessagePort }).deadEnd = dead.port1;
      bridge.contentWindow!.postMessage(
        { type: 'sandpit-preview-channel', session: url.searchParams.get('session'), id: 'gone' },
        url.origin,
        [dead.port2],
      );
    });
    // The reload's page is not taken on the channel: within seconds it comes over the bridge, with the
    // new bytes; then the playground makes a new channel, which the next save goes on.
    await bridgedThenNewChannel('gone-one', ['gone-two']);
  });

  it('previews the new bytes after a backend switch, on a channel to the new workspace worker', async () => {
    const { page } = pg;
    const name = 'e2e-channel-idb';
    await page.fill('#ws-name', name);
    await page.selectOption('#backend', 'indexeddb');
    await page.waitForFunction((s) => document.getElementById('status')!.textContent === s, `IndexedDB · ${name}`);
    const before = await bridged();
    const loads = await previewLoads(page);
    for (const [path, content] of Object.entries(app('eight')))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await shows('eight');
    await watchAsked(page);
    await save('nine');
    const asked = await takeAsked(page);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((request) => request.via !== 'channel')).toEqual([]);
    expect(await bridged()).toBe(before);
  });
});

describe("the playground's spare worker and the preview's first load", () => {
  it('starts the spare only once the preview open at a reload has loaded', async () => {
    const { page } = pg;
    // Each Worker the playground starts notes how many times the preview frame had loaded by then;
    // a capture listener sees the frame's load before the panel's own handler runs.
    await page.addInitScript(() => {
      if (window !== window.top) return;
      const scope = window as unknown as { workerStarts: number[]; Worker: typeof Worker };
      scope.workerStarts = [];
      let loads = 0;
      document.addEventListener(
        'load',
        (event) => {
          const frame = event.target as HTMLIFrameElement;
          if (frame.id === 'preview-frame' && frame.src) loads += 1;
        },
        true,
      );
      const Native = scope.Worker;
      scope.Worker = class extends Native {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          scope.workerStarts.push(loads);
        }
      };
    });
    // The preview open and loaded (its Service Worker running), so the reload opens it at once;
    // its page's answer then waits for the test.
    for (const [path, content] of Object.entries(app('ten')))
      expect((await callTool(page, 'write_file', { path, content })).ok).toBe(true);
    await page.click('#tab-preview');
    await shows('ten');
    await holdNextPage(page);
    await page.reload({ waitUntil: 'commit' });
    await heldPageAnswered(page);
    const starts = () => page.evaluate(() => (window as unknown as { workerStarts: number[] }).workerStarts);
    // The workspace worker has started; the spare either waits for the held load or (before) started during it.
    await page.waitForFunction(
      () =>
        document.body.dataset.spareWaits === 'preview' ||
        (window as unknown as { workerStarts: number[] }).workerStarts.length > 1,
    );
    expect(await starts()).toEqual([0]);
    await releaseHeldPage(page);
    await page.waitForFunction(() => (window as unknown as { workerStarts: number[] }).workerStarts.length > 1);
    expect(await starts()).toEqual([0, 1]);
    expect(await page.getAttribute('body', 'data-spare-waits')).toBe('');
    expect(await previewLoads(page)).toBeGreaterThan(0);
  });
});
