import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../bundle/web-build.js';
import { type LocalRegistry, startNpmRegistry } from '../support/npm-registry.js';
import { shots, startPlayground, type Playground } from './playground.js';
import { callTool, nextLoad, openPreview, previewConsole, previewFrame, previewLoads } from './preview-steps.js';

/**
 * The React sample in the live preview, installed as a person installs it: the "React sample"
 * button runs `npm install` in the playground's shell against a local registry serving this
 * repository's own react, react-dom and scheduler folders. Then the TSX app renders, reloads on
 * an edit, reloads with the network off, and names the package once it is taken away.
 */
let pg: Playground;
let registry: LocalRegistry;

beforeAll(async () => {
  // The exact versions react-dom's own folder depends on (scheduler sits nested under it here).
  registry = await startNpmRegistry([
    { dir: join(repoRoot, 'node_modules/react') },
    { dir: join(repoRoot, 'node_modules/react-dom') },
    { dir: join(repoRoot, 'node_modules/react-dom/node_modules/scheduler') },
  ]);
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'memory', leaveMemoryFreely: true });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await registry?.close();
});

const frame = () => previewFrame(pg.page);

describe('the React sample in the live preview', () => {
  it('installs from the local registry, summarises it in Review, renders, reloads on an edit and offline, and names a removed package', {
    timeout: 240_000,
  }, async () => {
    const { page } = pg;
    // The workspace's own .npmrc points its npm at the local registry, as a person would.
    expect((await callTool(page, 'write_file', { path: '.npmrc', content: `registry=${registry.url}\n` })).ok).toBe(
      true,
    );
    await page.$eval('#envelope', (node) => {
      node.textContent = '';
    });
    await page.click('#seed-react');
    // The button runs `npm install` in the tool console; its envelope is the install's answer.
    await page.waitForFunction(() => document.getElementById('envelope')!.textContent!.includes('"run_command"'), {
      timeout: 180_000,
    });
    const envelope = JSON.parse((await page.textContent('#envelope'))!);
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    expect(envelope.result.exit_code, JSON.stringify(envelope.result)).toBe(0);
    const installed = async (path: string) =>
      JSON.parse((await callTool(page, 'read_file', { path })).result.content as string).version;
    expect(await installed('node_modules/react/package.json')).toBe('19.3.1');
    expect(await installed('node_modules/react-dom/package.json')).toBe('19.3.1');
    expect(await installed('node_modules/scheduler/package.json')).toBe('0.28.0');

    // Every request went to the local registry: the packuments and the tarballs, nothing else.
    for (const [name, version] of [
      ['react', '19.3.1'],
      ['react-dom', '19.3.1'],
      ['scheduler', '0.28.0'],
    ] as const) {
      expect(registry.hits).toContain(name);
      expect(registry.hits).toContain(registry.tarballPath(name, version));
    }
    expect(pg.foreignRequests.filter((url) => !url.startsWith(registry.url))).toEqual([]);

    // Review shows the install as its packages and versions, not as every file it wrote.
    await page.click('#tab-review');
    await page.locator('#timeline li[data-id]').first().click();
    const summary = page.locator('#package-summary');
    await summary.waitFor();
    expect(await summary.locator('li').allTextContents()).toEqual([
      'added react 19.3.1',
      'added react-dom 19.3.1',
      'added scheduler 0.28.0',
    ]);
    expect(await page.locator('#diff section.diff-file[data-path^="node_modules/"]').count()).toBe(0);

    await openPreview(page);
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

    const served = registry.hits.length;
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
    // The preview needs nothing from the registry once installed.
    expect(registry.hits.length).toBe(served);

    // A package taken away again: the page itself says which one and what to run.
    loads = await previewLoads(page);
    expect((await callTool(page, 'delete_path', { path: 'node_modules/react-dom', recursive: true })).ok).toBe(true);
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    const note = frame().locator('[data-sandpit-missing]');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toMatch(/the package 'react-dom' is not installed: run npm install/);
    expect((await previewConsole(page)).join('\n')).toContain('run npm install');
  });
});
