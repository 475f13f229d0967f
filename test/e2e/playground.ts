import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { previewDemo, repoRoot, sharedDemo, type Preview } from '../bundle/web-build.js';
import { CHROMIUM_ARGS } from '../../scripts/test-setup.mjs';

/**
 * How often a page's waitForFunction looks again. Playwright's default looks at every animation
 * frame, which keeps the page drawing frames for as long as it waits, about 0.045 CPU-seconds of
 * Chromium per second waited; a timer this short costs next to nothing, and the wait still ends
 * on the state it waits for, at most this much later.
 */
export const POLL_MS = 100;

/** Where the e2e screenshots go: the test output folder, never the repository's own files. */
export const shots = join(repoRoot, 'test-results', 'e2e');

/** The built playground under `vite preview`, one Chromium page on it, and what that page did wrong. */
export interface Playground {
  base: string;
  url: string;
  /** the live preview's origin, when the playground was started with it */
  previewUrl?: string;
  context: BrowserContext;
  page: Page;
  foreignRequests: string[];
  pageErrors: string[];
  waitReady(page?: Page): Promise<void>;
  stop(): Promise<void>;
}

export interface PlaygroundOptions {
  withPreviewOrigin?: boolean;
  /**
   * The storage the page opens on at its first visit (as if picked last time); without it, the
   * page's own default (OPFS where the browser has it).
   */
  storage?: 'memory' | 'indexeddb' | 'opfs';
  /**
   * For suites about something else that move between Memory workspaces: say yes to the page's
   * question before a Memory workspace holding files is left or reloaded, unless the test is
   * listening for that dialog itself. Other dialogs nobody listens for are dismissed, as by default.
   */
  leaveMemoryFreely?: boolean;
}

/** Build once, serve once, open one page: the whole e2e file shares it, to stay fast (the browser is the project's). */
export async function startPlayground(options: PlaygroundOptions = {}): Promise<Playground> {
  const base = await mkdtemp(join(tmpdir(), 'sandpit-e2e-'));
  let preview: Preview | undefined;
  let context: BrowserContext | undefined;
  const stop = async () => {
    await context?.close();
    await preview?.stop();
    await rm(base, { recursive: true, force: true });
  };
  try {
    preview = await previewDemo(await sharedDemo(join(base, 'web')), options);
    // This process's Chromium; a context of its own keeps this file's storage apart.
    const browser = await processBrowser();
    // Reduced motion: the editor's caret then stands still (demo/style.css); a blinking one kept
    // the page drawing frames for as long as the editor had focus, wait after wait.
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      acceptDownloads: true,
      reducedMotion: 'reduce',
    });
    if (options.storage) {
      // Only on the first visit: a reload comes back to what the page itself remembered. Only on
      // the playground's origin: init scripts run in every frame, and the live preview's origin
      // must stay empty (preview.test.ts checks the previewed code finds no storage there).
      await context.addInitScript(
        ({ backend, origin }) => {
          if (location.origin !== origin) return;
          const key = 'sandpit.demo.workspace';
          if (!localStorage.getItem(key))
            localStorage.setItem(key, JSON.stringify({ backend, name: 'playground', tools: 'canonical' }));
        },
        { backend: options.storage, origin: new URL(preview.url).origin },
      );
    }
    // Every page of the context, the first and any second tab a test opens, waits by timer.
    context.on('page', pollByTimer);
    if (options.leaveMemoryFreely) {
      // Every page of the context, not only the first: a test that opens a second tab and carries
      // on in it (trust.test.ts's lock tests) would otherwise get Playwright's default answer, a
      // dismiss, and the page would rightly stay in the Memory workspace it was asked to leave.
      context.on('page', (opened) => {
        opened.on('dialog', (dialog) => {
          // Playwright's page is an EventEmitter: a test's own dialog listener takes precedence.
          if ((opened as unknown as { listenerCount(event: string): number }).listenerCount('dialog') > 1) return;
          const leaving = dialog.type() === 'beforeunload' || /^Leave the Memory workspace/.test(dialog.message());
          void (leaving ? dialog.accept() : dialog.dismiss()).catch(() => {});
        });
      });
    }
    const page = await context.newPage();
    // Shorter than the test timeout, so a stuck step names itself.
    page.setDefaultTimeout(20_000);
    const foreignRequests: string[] = [];
    const pageErrors: string[] = [];
    const url = preview.url;
    page.on('request', (request) => {
      const target = request.url();
      const own =
        target.startsWith(url) || (preview!.previewUrl !== undefined && target.startsWith(preview!.previewUrl));
      if (!own && !target.startsWith('data:') && !target.startsWith('blob:')) foreignRequests.push(target);
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    // The page marks itself ready once the workspace is open and listed; if it never does, say why.
    const waitReady = async (on: Page = page) => {
      await on
        .waitForSelector('body[data-ready="true"]', { state: 'attached', timeout: 20_000 })
        .catch((error: Error) => {
          throw new Error(`${error.message}\npage errors: ${pageErrors.join('\n') || '(none)'}`);
        });
    };
    await mkdir(shots, { recursive: true });
    await page.goto(url);
    await waitReady();
    return {
      base,
      url,
      ...(preview.previewUrl ? { previewUrl: preview.previewUrl } : {}),
      context,
      page,
      foreignRequests,
      pageErrors,
      waitReady,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const BROWSER = Symbol.for('sandpit.e2e.browser');

/**
 * One Chromium per test process, launched by its first playground and kept for the files after it:
 * the e2e workers run file after file (`isolate: false`), and each file opens a browser context of
 * its own on it, so storage, cookies and OPFS stay apart as in a fresh browser. Playwright talks to
 * it over its own pipe, in this process; a Chromium shared by the whole project (Playwright's
 * `launchServer` in vitest's main process) passed every protocol message of both workers through
 * that process and a WebSocket on the way. One that crashed is launched again.
 *
 * Vitest stops a worker with SIGTERM and kills it 500 ms later. Playwright's own SIGTERM handler
 * closes its browsers gracefully, which may take longer, and the kill then left Chromium's profile
 * folder behind in the temporary folder; so the worker exits at once on SIGTERM instead, and
 * Playwright's exit handler kills the browser and removes that folder before the process ends.
 */
function processBrowser(): Promise<Browser> {
  const holder = globalThis as { [BROWSER]?: Promise<Browser> };
  const launch = async () => {
    if (!process.listeners('SIGTERM').includes(exitOnTerm)) process.once('SIGTERM', exitOnTerm);
    // Playwright makes the profile folder in the temporary folder: the run's own, which the
    // project's teardown removes (browser-global-setup.ts), should a kill cut the exit handler short.
    const saved = process.env.TMPDIR;
    const runTemp = inject('e2eBrowserTemp');
    if (runTemp) process.env.TMPDIR = runTemp;
    try {
      return await chromium.launch({
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: CHROMIUM_ARGS,
        handleSIGTERM: false,
      });
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  };
  const current = holder[BROWSER];
  holder[BROWSER] = (current ?? launch()).then(
    (browser) => (browser.isConnected() ? browser : launch()),
    () => launch(),
  );
  return holder[BROWSER];
}

/** The exit status of a process ended by SIGTERM, through `process.exit`, so exit handlers run. */
const exitOnTerm = () => process.exit(128 + 15);

/** Make `page.waitForFunction` look every POLL_MS unless a call names its own polling. */
function pollByTimer(page: Page): void {
  type Wait = (
    fn: unknown,
    arg?: unknown,
    options?: { polling?: number | 'raf'; timeout?: number },
  ) => Promise<unknown>;
  const wait = page.waitForFunction.bind(page) as Wait;
  const byTimer: Wait = (fn, arg, options) => wait(fn, arg, { polling: POLL_MS, ...options });
  (page as unknown as { waitForFunction: Wait }).waitForFunction = byTimer;
}

/** The editor's text as a person sees it. */
export const editorText = (page: Page) =>
  page.$eval('#editor .cm-content', (node) => (node as HTMLElement).innerText.replace(/\u00a0/g, ' '));

export const treePaths = (page: Page) =>
  page.$$eval('#file-tree li[data-path]', (items) => items.map((i) => (i as HTMLElement).dataset.path));

/** Fill the console's generated form for `tool` and run it; resolves to the envelope it shows. */
export async function runForm(page: Page, tool: string, fields: Record<string, string>): Promise<Record<string, any>> {
  // A click on the tab already open changes nothing and costs a Playwright action (~30 ms of CPU).
  if ((await page.getAttribute('#tab-console', 'aria-selected')) !== 'true') await page.click('#tab-console');
  await page.selectOption('#tool', tool);
  for (const [name, value] of Object.entries(fields)) await page.fill(`#arg-${name}`, value);
  const before = await page.textContent('#envelope');
  await page.click('#run');
  await page.waitForFunction((old) => document.getElementById('envelope')!.textContent !== old, before);
  return JSON.parse((await page.textContent('#envelope'))!);
}

/** The page helpers a group of steps uses, on the page `page()` gives once the group's beforeAll ran. */
export function helpersOn(page: () => Page) {
  return {
    editorText: () => editorText(page()),
    treePaths: () => treePaths(page()),
    runForm: (tool: string, fields: Record<string, string>) => runForm(page(), tool, fields),
  };
}
