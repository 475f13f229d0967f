import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../bundle/web-build.js';
import { shots, startPlayground, type Playground } from './playground.js';
import { callTool, nextLoad, openPreview, previewConsole, previewFrame, previewLoads } from './preview-steps.js';

/**
 * The React sample in the live preview: real `react` and `react-dom` (CommonJS packages) from
 * the workspace's node_modules, a TSX app with the automatic JSX runtime, a reload on change,
 * and a reload with the network off. The packages are copied in here, as `npm install` lays
 * them out, so the test needs no registry.
 */
let pg: Playground;

/** node_modules/{react,react-dom,scheduler} as npm lays them out (entry files and development builds only), base64 by path. */
async function packageFiles(): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const sources: Array<[string, string]> = [
    ['react', 'node_modules/react'],
    ['react-dom', 'node_modules/react-dom'],
    ['scheduler', 'node_modules/react-dom/node_modules/scheduler'],
  ];
  for (const [name, source] of sources) {
    const from = join(repoRoot, source);
    for (const entry of await readdir(from, { recursive: true, withFileTypes: true })) {
      const path = relative(from, join(entry.parentPath, entry.name));
      if (!entry.isFile() || path.startsWith('node_modules/')) continue;
      if (path.startsWith('cjs/') && !/\.development\.js$/.test(path)) continue;
      if (/server|static|profiling|test-utils/.test(path)) continue;
      files[`node_modules/${name}/${path}`] = (await readFile(join(from, path))).toString('base64');
    }
  }
  return files;
}

/** Put files into the workspace as one change, as an install does (the page's folder import leaves node_modules out). */
async function install(files: Record<string, string>): Promise<void> {
  const ok = await pg.page.evaluate(async (encoded) => {
    const { session } = (window as unknown as { sandpitPlayground: { session: any } }).sandpitPlayground;
    const list = Object.entries(encoded).map(([path, b64]) => ({
      path,
      bytes: Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
    }));
    return (await session.importFiles(list)).ok as boolean;
  }, files);
  expect(ok).toBe(true);
}

beforeAll(async () => {
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
});

const frame = () => previewFrame(pg.page);

describe('the React sample in the live preview', () => {
  it('names the missing packages, then renders, reloads on an edit, and reloads offline', {
    timeout: 240_000,
  }, async () => {
    const { page } = pg;
    await page.click('#seed-react');
    // The button runs `npm install` in the tool console; whatever the shell answers, it finishes.
    await page.waitForFunction(() => document.getElementById('envelope')!.textContent!.includes('"run_command"'), {
      timeout: 120_000,
    });
    expect((await callTool(page, 'exists', { path: 'src/App.tsx' })).result.exists).toBe(true);

    // Nothing installed yet: the page itself says which package and what to run.
    await openPreview(page);
    const note = frame().locator('[data-sandpit-missing]');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toMatch(/the package 'react(-dom)?' is not installed: run npm install/);
    expect((await previewConsole(page)).join('\n')).toContain('run npm install');

    // Installed as npm lays it out: the preview reloads and React renders.
    await install(await packageFiles());
    await page.click('#tab-preview');
    await frame().locator('h1', { hasText: 'Hello from React' }).waitFor({ timeout: 60_000 });
    const button = frame().locator('button');
    expect(await button.textContent()).toBe('Clicked 0 times');
    await button.click();
    await frame().locator('button', { hasText: 'Clicked 1 times' }).waitFor();
    // The stylesheet the TSX imports is applied.
    expect(
      await frame()
        .locator('h1')
        .evaluate((h) => getComputedStyle(h).color),
    ).toBe('rgb(124, 58, 237)');
    await page.screenshot({ path: join(shots, 'react-sample.png') });

    let loads = await previewLoads(page);
    const app = (await callTool(page, 'read_file', { path: 'src/App.tsx' })).result.content as string;
    const edited = app.replace('Hello from React', 'Edited in the sandpit');
    expect((await callTool(page, 'write_file', { path: 'src/App.tsx', content: edited })).ok).toBe(true);
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await frame().locator('h1', { hasText: 'Edited in the sandpit' }).waitFor({ timeout: 30_000 });

    await pg.context.setOffline(true);
    try {
      loads = await previewLoads(page);
      await page.click('#preview-reload');
      await nextLoad(page, loads);
      await frame().locator('h1', { hasText: 'Edited in the sandpit' }).waitFor({ timeout: 30_000 });
      expect(await frame().locator('button').textContent()).toBe('Clicked 0 times');
    } finally {
      await pg.context.setOffline(false);
    }
  });
});
