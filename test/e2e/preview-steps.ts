import type { FrameLocator, Page, Worker } from 'playwright-core';

/** The previewed page, as Playwright reaches into the cross-origin frame. */
export const previewFrame = (page: Page): FrameLocator => page.frameLocator('#preview-frame');

/** How many times the previewed page has fired its load event so far. */
export const previewLoads = (page: Page) =>
  page.$eval('#preview-frame', (f) => Number((f as HTMLElement).dataset.loads ?? 0));

/** Wait for the preview's next load after `before`, and give the text of `selector` in it. */
export async function nextLoad(page: Page, before: number): Promise<void> {
  await page.waitForFunction((n) => Number(document.getElementById('preview-frame')?.dataset.loads ?? 0) > n, before, {
    timeout: 15_000,
  });
}

/** Open the Preview tab and wait until the page in it has loaded at least once. */
export async function openPreview(page: Page): Promise<void> {
  await page.click('#tab-preview');
  await page.waitForFunction(
    () => Number(document.getElementById('preview-frame')?.dataset.loads ?? 0) > 0,
    undefined,
    { timeout: 20_000 },
  );
}

/** The lines of the console strip under the preview. */
export const previewConsole = (page: Page) =>
  page.$$eval('#preview-console li', (items) => items.map((i) => i.textContent ?? ''));

/**
 * Run a tool through the page's own tool console and wait for its envelope: the Console tab, the
 * tool picked, the JSON mode, the arguments, Run, then back to the form, as a person does them,
 * done in one call into the page. A Playwright action per step cost about 0.2 CPU-seconds a call
 * (its checks and input events, eight round trips), and the tests that use this helper are about
 * what the tool did; the console's own clicks and typing are tested by runForm and its tests.
 */
export async function callTool(page: Page, tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  // A call waits behind the worker's other work (a save's snapshot, the blame the save asks for)
  // and a full run's load: the test's own time limit bounds it, not a second clock of its own (a
  // 60 s one ended a file_bytes call after a save at load 17). The page says when it has answered.
  const text = await page.evaluate(
    async ([name, json]) => {
      const byId = <T extends HTMLElement>(id: string) => {
        const node = document.getElementById(id) as T | null;
        if (!node) throw new Error(`callTool: the page has no #${id}`);
        return node;
      };
      const changed = (node: Node, done: () => boolean, options: MutationObserverInit) =>
        new Promise<void>((resolve) => {
          if (done()) return resolve();
          const watch = new MutationObserver(() => {
            if (!done()) return;
            watch.disconnect();
            resolve();
          });
          watch.observe(node, options);
        });
      byId('tab-console').click();
      const select = byId<HTMLSelectElement>('tool');
      if (![...select.options].some((option) => option.value === name))
        throw new Error(`callTool: the console offers no tool named ${name}`);
      // As a pick from the list: the page resets the form and clears the last result on change.
      select.value = name;
      select.dispatchEvent(new Event('input', { bubbles: true }));
      select.dispatchEvent(new Event('change', { bubbles: true }));
      byId('mode-json').click();
      const raw = byId<HTMLTextAreaElement>('args');
      raw.value = json;
      raw.dispatchEvent(new Event('input', { bubbles: true }));
      // Cleared first, so a call whose envelope reads as the last one's still counts as answered.
      const envelope = byId('envelope');
      envelope.textContent = '';
      // Run is off while another call of the console runs: a click then would do nothing.
      const run = byId<HTMLButtonElement>('run');
      await changed(run, () => !run.disabled, { attributes: true });
      run.click();
      await changed(envelope, () => envelope.textContent !== '', {
        childList: true,
        characterData: true,
        subtree: true,
      });
      byId('mode-form').click();
      return envelope.textContent!;
    },
    [tool, JSON.stringify(args)] as const,
  );
  return JSON.parse(text);
}

/** The preview origin's Service Worker, where a test can reach into how it answers. */
function previewWorker(page: Page): Worker {
  const worker = page
    .context()
    .serviceWorkers()
    .find((w) => new URL(w.url()).pathname.endsWith('/preview-sw.js'));
  if (!worker) throw new Error('the preview has no Service Worker running');
  return worker;
}

/**
 * Hold the answer to the preview's next page request until `releaseHeldPage`: the file server
 * reads and answers it as usual, but the Service Worker gets the answer only on release, so the
 * frame's navigation stays waiting for its response, with bytes read before the release. The
 * Service Worker's request (on its direct channel to the workspace worker, or to the bridge) is
 * given a port of the test's, which passes on what comes back: the worker's note that it took the
 * request at once, the answer on release.
 */
export async function holdNextPage(page: Page): Promise<void> {
  await previewWorker(page).evaluate(() => {
    type Poster = { postMessage(message: unknown, transfer: Transferable[]): void };
    const scope = globalThis as unknown as {
      WindowClient: { prototype: Poster };
      MessagePort: { prototype: Poster };
      previewHold: unknown;
    };
    const protos = [scope.WindowClient.prototype, scope.MessagePort.prototype];
    const posts = protos.map((proto) => proto.postMessage);
    const queue: Array<() => void> = [];
    let answered = () => {};
    const hold = { answered: new Promise<void>((resolve) => (answered = resolve)), released: false, release: () => {} };
    hold.release = () => {
      hold.released = true;
      for (const send of queue.splice(0)) send();
    };
    scope.previewHold = hold;
    protos.forEach((proto, i) => {
      const post = posts[i]!;
      proto.postMessage = function (this: Poster, message: unknown, transfer: Transferable[] = []) {
        const request = message as { type?: string; navigation?: boolean };
        const toServiceWorker = transfer[0] as MessagePort | undefined;
        if (request?.type !== 'sandpit-preview-request' || request.navigation !== true || !toServiceWorker)
          return post.call(this, message, transfer);
        protos.forEach((p, j) => (p.postMessage = posts[j]!));
        const between = new MessageChannel();
        between.port1.onmessage = (answer) => {
          const send = () => posts[1]!.call(toServiceWorker as unknown as Poster, answer.data, []);
          if ((answer.data as { type?: string })?.type === 'sandpit-preview-taken') return send();
          answered();
          if (hold.released) send();
          else queue.push(send);
        };
        return post.call(this, message, [between.port2]);
      };
    });
  });
}

/**
 * Note from now on the paths of the requests the Service Worker asks of the workspace (the files
 * it was not sent ahead), and which way each went: on the direct channel or over the bridge.
 */
export async function watchAsked(page: Page): Promise<void> {
  await previewWorker(page).evaluate(() => {
    type Poster = { postMessage(message: unknown, transfer: Transferable[]): void };
    const scope = globalThis as unknown as {
      WindowClient: { prototype: Poster };
      MessagePort: { prototype: Poster };
      previewAsked?: Array<{ path: string; via: string }>;
    };
    if (scope.previewAsked) return;
    const asked: Array<{ path: string; via: string }> = [];
    scope.previewAsked = asked;
    for (const [proto, via] of [
      [scope.WindowClient.prototype, 'bridge'],
      [scope.MessagePort.prototype, 'channel'],
    ] as const) {
      const post = proto.postMessage;
      proto.postMessage = function (this: Poster, message: unknown, transfer: Transferable[] = []) {
        const request = message as { type?: string; path?: string };
        if (request?.type === 'sandpit-preview-request') asked.push({ path: String(request.path), via });
        return post.call(this, message, transfer);
      };
    }
  });
}

/** The requests noted since `watchAsked` or the last call of this, which it clears. */
export async function takeAsked(page: Page): Promise<Array<{ path: string; via: string }>> {
  return previewWorker(page).evaluate(() =>
    (globalThis as unknown as { previewAsked: Array<{ path: string; via: string }> }).previewAsked.splice(0),
  );
}

/** Wait until the held page has been answered (its bytes read), not yet passed on. */
export async function heldPageAnswered(page: Page): Promise<void> {
  await previewWorker(page).evaluate(
    () => (globalThis as unknown as { previewHold: { answered: Promise<void> } }).previewHold.answered,
  );
}

/** Let the held page's answer (and what it serves ahead) through to the Service Worker. */
export async function releaseHeldPage(page: Page): Promise<void> {
  await previewWorker(page).evaluate(() =>
    (globalThis as unknown as { previewHold: { release(): void } }).previewHold.release(),
  );
}
