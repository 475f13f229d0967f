import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, filesOnBranch, git, startGitServer, type GitServer } from '../git/git-server.js';
import { clickAndRead, watchProgress, workspaceFiles } from './git-steps.js';
import { shots, startPlayground, treePaths, type Playground } from './playground.js';

/**
 * The playground's Git tab end to end: a real `git http-backend` on another port (so every fetch
 * is cross-origin and needs its CORS headers), the built demo under `vite preview`, Chromium, and
 * the git CLI to check what arrived. The steps share the page and run in order.
 */
const REPO = 'e2e-demo';
const seed = {
  'README.md': '# Demo repository\n',
  'src/app.js': "export const greeting = 'hi';\n",
  'src/lib/util.js': 'export const one = 1;\n',
};
const edited = "export const greeting = 'hi'; // edited in the playground\n";
const BRANCH = 'agent/e2e-change';
const WRONG_TOKEN = 'wrong-token-e2e-7c1a';

let pg: Playground;
let server: GitServer;
let page: Page;
let bare: string;
beforeAll(async () => {
  server = await startGitServer();
  bare = createRepo(server, REPO, seed);
  pg = await startPlayground();
  page = pg.page;
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  await server?.close();
});

const branches = () => git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n');

describe('the Git tab of the playground', () => {
  it('clones a cross-origin repository with a moving progress bar, and the tree shows its files', async () => {
    await page.click('#tab-git');
    expect(await page.isVisible('#pane-git')).toBe(true);
    await page.fill('#git-url', `${server.url}/${REPO}.git`);
    const progress = await watchProgress(page);
    const cloned = await clickAndRead(page, '#git-clone');
    expect(cloned).toMatchObject({ ok: true, result: { ref: 'main', files: 3, shallow: true } });

    const seen = await progress();
    const shown = seen.filter((s) => !s.hidden && s.max > 1);
    expect(shown.some((s) => s.phase.startsWith('Writing files'))).toBe(true);
    // It moved: more than one position, up to its end, and it is put away once the clone is done.
    expect(new Set(shown.map((s) => s.value)).size).toBeGreaterThan(1);
    expect(shown.some((s) => s.value === s.max)).toBe(true);
    expect(seen.at(-1)?.hidden).toBe(true);

    await page.waitForSelector('#file-tree li[data-path="src/lib/util.js"]');
    expect((await treePaths(page)).sort()).toEqual(['README.md', 'src', 'src/app.js', 'src/lib', 'src/lib/util.js']);
    expect(await workspaceFiles(page)).toEqual(seed);
  });

  it('edits a cloned file in the editor and saves it with edit_file', async () => {
    await page.click('#file-tree li[data-path="src/app.js"]');
    await page.waitForFunction(() => document.querySelector('#editor .cm-content')?.textContent === "export const greeting = 'hi';");
    await page.click('#editor .cm-line >> nth=0');
    await page.keyboard.press('End');
    await page.keyboard.insertText(' // edited in the playground');
    await page.keyboard.press('Control+s');
    await page.waitForFunction(() => document.getElementById('editor-state')!.textContent === 'saved with edit_file');
    expect(await workspaceFiles(page)).toEqual({ ...seed, 'src/app.js': edited });
  });

  it('refuses a push with a wrong token as PERMISSION_DENIED in the panel, and nothing changes', async () => {
    const before = await workspaceFiles(page);
    await page.click('#tab-git');
    await page.fill('#git-branch', BRANCH);
    await page.fill('#git-token', WRONG_TOKEN);
    const refused = await clickAndRead(page, '#git-push');
    expect(refused).toMatchObject({ ok: false, tool: 'git_push', error: { code: 'PERMISSION_DENIED' } });
    // Said in the panel on its own line, with the hint, and in an alert.
    expect(await page.textContent('#git-summary.error .code')).toBe('PERMISSION_DENIED');
    expect(await page.textContent('#git-summary .hint')).toContain('token');
    expect(await page.textContent('#toasts [role="alert"]')).toContain('PERMISSION_DENIED');
    expect(JSON.stringify(refused)).not.toContain(WRONG_TOKEN);
    // The server did hear the wrong token, and kept nothing: no new branch, same files here.
    expect(server.seenAuth.some((h) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString().endsWith(`:${WRONG_TOKEN}`))).toBe(true);
    expect(branches()).toEqual(['main']);
    expect(await workspaceFiles(page)).toEqual(before);
  });

  it('pushes to a new branch with the token, and `git clone` of it has exactly the workspace\'s files', async () => {
    await page.click('#tab-git');
    await page.fill('#git-token', server.token);
    const pushed = await clickAndRead(page, '#git-push');
    expect(pushed).toMatchObject({ ok: true, tool: 'git_push', result: { branch: BRANCH } });
    expect(await page.textContent('#git-summary.ok .message')).toBe('git_push succeeded');
    expect(await page.textContent('#git-result')).not.toContain(server.token);
    await page.screenshot({ path: join(shots, 'git-tab.png') });

    expect(branches().sort()).toEqual([BRANCH, 'main']);
    const files = await workspaceFiles(page);
    expect(files).toEqual({ ...seed, 'src/app.js': edited });
    expect(filesOnBranch(server, REPO, BRANCH)).toEqual(files);
  });

  it('talked only to the preview server and the git server, and logged no errors', () => {
    const toGit = pg.foreignRequests.filter((url) => url.startsWith(`${server.url}/`));
    // The worker's fetches are seen here, so an empty list below is a real finding, not a blind spot.
    expect(toGit.some((url) => url.includes('git-receive-pack'))).toBe(true);
    expect(pg.foreignRequests.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
    expect(pg.pageErrors).toEqual([]);
  });
});
