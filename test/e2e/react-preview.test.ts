import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../bundle/web-build.js';
import { type FixturePackage, type LocalRegistry, startNpmRegistry } from '../support/npm-registry.js';
import { shots, startPlayground, type Playground } from './playground.js';
import { callTool, nextLoad, openPreview, previewConsole, previewFrame, previewLoads } from './preview-steps.js';

/**
 * The React sample in the live preview, installed as a person installs it: the "React sample"
 * button runs `npm install` in the playground's shell (an OPFS workspace, the playground's
 * default) against a local registry serving this repository's own react, react-dom and scheduler
 * folders, and two fixture packages that ship stylesheets. Then the TSX app renders, reloads on
 * an edit and offline, applies the packages' own CSS, and comes back after a reload of the whole
 * page with the registry gone: files, node_modules and the preview as they were, a package taken
 * away named in the page, and put back by `npm install` from the browser's tarball cache.
 */
/**
 * Packages that ship stylesheets: one imported by its path inside the package (no `exports`), one
 * through its `exports` map, whose CommonJS entry also `require`s a stylesheet of its own.
 */
const STYLED_PACKAGES: FixturePackage[] = [
  {
    name: 'plain-css',
    version: '1.0.0',
    files: { 'dist/style.css': '.plain-note { color: rgb(1, 2, 3); }\n' },
  },
  {
    name: 'kit-styles',
    version: '1.0.0',
    exports: { '.': './widget.js', './theme.css': './dist/theme.css', './package.json': './package.json' },
    files: {
      'widget.js': "require('./dist/widget.css');\nexports.widgetClass = 'kit-widget';\n",
      'dist/theme.css': '.kit-theme { color: rgb(4, 5, 6); }\n',
      'dist/widget.css': '.kit-widget { color: rgb(7, 8, 9); }\n',
    },
  },
];

/** The sample's App, edited to use the styled packages three ways. */
const STYLED_APP = [
  "import { useState } from 'react';",
  "import { widgetClass } from 'kit-styles';",
  "import 'plain-css/dist/style.css';",
  "import 'kit-styles/theme.css';",
  '',
  'export function App() {',
  '  const [count, setCount] = useState(0);',
  '  return (',
  '    <main>',
  '      <h1>Styled by packages</h1>',
  '      <button type="button" onClick={() => setCount((n) => n + 1)}>',
  '        Clicked {count} times',
  '      </button>',
  '      <p className="plain-note">a path into the package</p>',
  '      <p className="kit-theme">a CSS export</p>',
  '      <p className={widgetClass}>required by the package itself</p>',
  '    </main>',
  '  );',
  '}',
  '',
].join('\n');

let pg: Playground;
let registry: LocalRegistry;

beforeAll(async () => {
  // The exact versions react-dom's own folder depends on (scheduler sits nested under it here).
  registry = await startNpmRegistry([
    { dir: join(repoRoot, 'node_modules/react') },
    { dir: join(repoRoot, 'node_modules/react-dom') },
    { dir: join(repoRoot, 'node_modules/react-dom/node_modules/scheduler') },
    ...STYLED_PACKAGES,
  ]);
  pg = await startPlayground({ withPreviewOrigin: true, storage: 'opfs' });
}, 180_000);
afterAll(async () => {
  await pg?.stop();
  await registry?.close();
});

const frame = () => previewFrame(pg.page);
const colorOf = (selector: string) =>
  frame()
    .locator(selector)
    .evaluate((node) => getComputedStyle(node).color);
const installed = async (path: string) =>
  JSON.parse((await callTool(pg.page, 'read_file', { path })).result.content as string).version;
type Run = { exit_code: number; stdout: string; stderr: string };
async function npm(command: string): Promise<Run> {
  const envelope = await callTool(pg.page, 'run_command', { command, timeout_seconds: 300 });
  expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
  return envelope.result as Run;
}

describe('the React sample in the live preview', () => {
  it('installs from the local registry, summarises it in Review, renders, and reloads on an edit and offline', {
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
    // Every line the console's progress line shows while the install runs.
    await page.evaluate(() => {
      const line = document.getElementById('call-progress')!;
      const seen: string[] = [];
      (window as unknown as { progressSeen: string[] }).progressSeen = seen;
      new MutationObserver(() => {
        if (line.textContent) seen.push(line.textContent);
      }).observe(line, { childList: true, characterData: true, subtree: true });
    });
    await page.click('#seed-react');
    // The button runs `npm install` in the tool console; its envelope is the install's answer.
    await page.waitForFunction(
      () => document.getElementById('envelope')!.textContent!.includes('"run_command"'),
      undefined,
      { timeout: 180_000 },
    );
    const envelope = JSON.parse((await page.textContent('#envelope'))!);
    expect(envelope.ok, JSON.stringify(envelope)).toBe(true);
    expect(envelope.result.exit_code, JSON.stringify(envelope.result)).toBe(0);
    // The console showed the install's progress while it ran, and nothing once it answered.
    const progressSeen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(progressSeen).toContainEqual(expect.stringMatching(/^resolving \d+\/\d+ packages/));
    expect(progressSeen).toContainEqual(expect.stringMatching(/^fetching 3\/3 packages, \d+ bytes$/));
    expect(await page.isHidden('#call-progress')).toBe(true);
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
    expect(await colorOf('h1')).toBe('rgb(124, 58, 237)');
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
  });

  it("applies the stylesheets packages ship: a path into the package, a CSS export, and one the package's CommonJS requires", {
    timeout: 120_000,
  }, async () => {
    const { page } = pg;
    const added = await npm('npm install plain-css kit-styles');
    expect(added.exit_code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/added 2 packages/);
    const loads = await previewLoads(page);
    expect((await callTool(page, 'write_file', { path: 'src/App.tsx', content: STYLED_APP })).ok).toBe(true);
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await frame().locator('h1', { hasText: 'Styled by packages' }).waitFor({ timeout: 30_000 });
    expect(await colorOf('p.plain-note')).toBe('rgb(1, 2, 3)');
    expect(await colorOf('p.kit-theme')).toBe('rgb(4, 5, 6)');
    expect(await colorOf('p.kit-widget')).toBe('rgb(7, 8, 9)');
    // The app's own stylesheet still applies beside them.
    expect(await colorOf('h1')).toBe('rgb(124, 58, 237)');
  });

  it('comes back after a reload of the page with the registry unreachable, names a package taken away, and reinstalls it from the tarball cache', {
    timeout: 180_000,
  }, async () => {
    const { page } = pg;
    await registry.close();
    await page.reload();
    await pg.waitReady();
    // The workspace and its node_modules are still in OPFS; the preview was open, so it opens again.
    await frame().locator('h1', { hasText: 'Styled by packages' }).waitFor({ timeout: 60_000 });
    await frame().locator('button').click();
    await frame().locator('button', { hasText: 'Clicked 1 times' }).waitFor();
    expect(await colorOf('p.kit-widget')).toBe('rgb(7, 8, 9)');
    expect(await installed('node_modules/react-dom/package.json')).toBe('19.3.1');
    expect(await installed('node_modules/kit-styles/package.json')).toBe('1.0.0');

    // A package taken away: the page itself says which one and what to run.
    let loads = await previewLoads(page);
    expect((await callTool(page, 'delete_path', { path: 'node_modules/react-dom', recursive: true })).ok).toBe(true);
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    const note = frame().locator('[data-sandpit-missing]');
    await note.waitFor({ timeout: 20_000 });
    expect(await note.textContent()).toMatch(/the package 'react-dom' is not installed: run npm install/);
    expect((await previewConsole(page)).join('\n')).toContain('run npm install');

    // npm install puts it back with the registry still gone: the tarball comes from Cache Storage.
    loads = await previewLoads(page);
    const reinstalled = await npm('npm install');
    expect(reinstalled.exit_code, reinstalled.stderr).toBe(0);
    expect(reinstalled.stdout).toMatch(/added 1 package\b/);
    expect(await installed('node_modules/react-dom/package.json')).toBe('19.3.1');
    await page.click('#tab-preview');
    await nextLoad(page, loads);
    await frame().locator('h1', { hasText: 'Styled by packages' }).waitFor({ timeout: 30_000 });
    expect(await frame().locator('[data-sandpit-missing]').count()).toBe(0);
  });
});
