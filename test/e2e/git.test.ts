import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, filesOnBranch, git, startGitServer, type GitServer } from '../git/git-server.js';
import { clickAndRead, watchProgress, workspaceFiles } from './git-steps.js';
import { runForm, shots, startPlayground, treePaths, type Playground } from './playground.js';

/**
 * The playground's Git tab end to end: a real `git http-backend` on another port (so every fetch
 * is cross-origin and needs its CORS headers), the built demo under `vite preview`, Chromium, and
 * the git CLI to check what arrived. The steps share the page and run in order.
 *
 * Then issue 39 on the same page (a file and a page of its own cost about 3 CPU-seconds): git in
 * the playground's shell after a clone through the Git tab, on both persistent backends: `git
 * status`, an edit, `git diff`, `git commit -am`, `git log --oneline`, typed into the console's
 * run_command as a person would. Each starts in a workspace of its own, so it runs the same alone.
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
const SHELL_REPO = 'e2e-shell-git';
const shellSeed = { 'README.md': '# Shell git\n', 'src/app.js': "export const greeting = 'hi';\n" };

let pg: Playground;
let server: GitServer;
let page: Page;
let bare: string;
beforeAll(async () => {
  server = await startGitServer();
  bare = createRepo(server, REPO, seed);
  createRepo(server, SHELL_REPO, shellSeed);
  pg = await startPlayground({ storage: 'memory', leaveMemoryFreely: true });
  page = pg.page;
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  await server?.close();
});

// A port nothing answers on (Chromium will not even try it), for a clone that cannot reach its server.
const UNREACHABLE = 'http://127.0.0.1:9/nothing.git';
const branches = () => git(bare, 'for-each-ref', '--format=%(refname:short)', 'refs/heads').trim().split('\n');

describe('the Git tab of the playground', () => {
  it("8 (issue 26): a clone that reaches no server says so in the page's words, naming the CORS proxy field", async () => {
    await page.click('#tab-git');
    await page.fill('#git-url', UNREACHABLE);
    const failed = await clickAndRead(page, '#git-clone');
    expect(failed).toMatchObject({ ok: false, error: { code: 'IO_ERROR' } });
    const hint = (await page.textContent('#git-summary .hint'))!;
    expect(hint).toContain('fill in the CORS proxy field above');
    expect(hint).not.toMatch(/corsProxy|depth|Bytes/);
    // Put its toast away, as a person would, so the alerts below are the push's own.
    await page.click('#toasts .toast.error');
    await page.fill('#git-url', '');
  });

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
    expect((await treePaths(page)).sort()).toEqual([
      '.git',
      'README.md',
      'src',
      'src/app.js',
      'src/lib',
      'src/lib/util.js',
    ]);
    expect(await workspaceFiles(page)).toEqual(seed);
  });

  it('edits a cloned file in the editor and saves it with edit_file', async () => {
    await page.click('#file-tree li[data-path="src/app.js"]');
    await page.waitForFunction(
      () => document.querySelector('#editor .cm-content')?.textContent === "export const greeting = 'hi';",
    );
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
    expect(
      server.seenAuth.some((h) =>
        Buffer.from(h.replace(/^Basic /, ''), 'base64')
          .toString()
          .endsWith(`:${WRONG_TOKEN}`),
      ),
    ).toBe(true);
    expect(branches()).toEqual(['main']);
    expect(await workspaceFiles(page)).toEqual(before);
  });

  it("pushes to a new branch with the token, and `git clone` of it has exactly the workspace's files", async () => {
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

  it('14 (issue 26): message and author apply to the one commit, say so, list only the changes since the last push, and git shows them', async () => {
    await page.click('#tab-git');
    // One commit with the person's message is what the fields are for, so it is the default.
    expect(await page.isChecked('#git-squash')).toBe(true);
    expect(await page.textContent('#git-commit-note')).toContain('Your message and name go on the one commit');
    await page.uncheck('#git-squash');
    expect(await page.isDisabled('#git-message')).toBe(true);
    expect(await page.isDisabled('#git-author-name')).toBe(true);
    expect(await page.textContent('#git-commit-note')).toContain('so these fields do not apply');
    await page.check('#git-squash');
    expect(await page.isDisabled('#git-message')).toBe(false);

    // The push before used the filled-in message: the cloned tree's one edit, and no one's name.
    const first = git(bare, 'log', '-1', '--format=%an <%ae>%n%B', BRANCH);
    expect(first).toContain('Sandpit <sandpit@localhost>');
    expect(first).toContain('src/app.js');
    // A filled-in message is not kept: the next visit fills in the changes of then.
    const kept = await page.evaluate(() =>
      Object.entries(localStorage)
        .filter(([k]) => k.startsWith('sandpit.demo.git:'))
        .map(([, v]) => JSON.parse(v)),
    );
    expect(kept.length).toBeGreaterThan(0);
    for (const entry of kept) expect(entry.message).toBeUndefined();

    const firstOid = git(bare, 'rev-parse', BRANCH).trim();
    expect((await runForm(page, 'write_file', { path: 'NOTES.md', content: 'after the first push\n' })).ok).toBe(true);
    await page.click('#tab-git');
    await page.waitForFunction(() =>
      (document.getElementById('git-message') as HTMLTextAreaElement).value.includes('NOTES.md'),
    );
    const suggested = await page.inputValue('#git-message');
    expect(suggested).not.toContain('src/app.js');
    await page.fill('#git-author-name', 'Ada Lovelace');
    await page.fill('#git-author-email', 'ada@example.test');
    expect(await clickAndRead(page, '#git-push')).toMatchObject({
      ok: true,
      result: { branch: BRANCH, squashed: true },
    });

    const second = git(bare, 'log', '-1', '--format=%an <%ae>%n%cn <%ce>%n%B', BRANCH);
    expect(second).toBe(`Ada Lovelace <ada@example.test>\nAda Lovelace <ada@example.test>\n${suggested.trim()}\n\n`);
    expect(git(bare, 'rev-parse', `${BRANCH}~1`).trim()).toBe(firstOid);
    // Spent: nothing has changed since this push, so there is nothing to fill in; the author stays.
    await page.waitForFunction(() => (document.getElementById('git-message') as HTMLTextAreaElement).value === '');
    expect(await page.inputValue('#git-author-name')).toBe('Ada Lovelace');
  });

  it('talked only to the preview server and the git server, and logged no errors', () => {
    const toGit = pg.foreignRequests.filter((url) => url.startsWith(`${server.url}/`));
    // The worker's fetches are seen here, so an empty list below is a real finding, not a blind spot.
    expect(toGit.some((url) => url.includes('git-receive-pack'))).toBe(true);
    expect(
      pg.foreignRequests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith(UNREACHABLE)),
    ).toEqual([]);
    // The failed clone's request shows as a console error; nothing else may.
    expect(pg.pageErrors.filter((text) => !text.includes('net::ERR_'))).toEqual([]);
  });
});

/** run_command from the console: its stdout, stderr and exit code. */
async function shell(command: string): Promise<{ exit_code: number; stdout: string; stderr: string }> {
  const envelope = await runForm(page, 'run_command', { command });
  expect(envelope, command).toMatchObject({ ok: true });
  return envelope.result;
}

describe.each([
  ['opfs', 'OPFS'],
  ['indexeddb', 'IndexedDB'],
] as const)('git in the console after a Git-tab clone, on %s', (backend, label) => {
  it('clones, then status, an edit, diff, commit -am and log --oneline answer as git does', async () => {
    await page.fill('#ws-name', `git-shell-${backend}`);
    await page.selectOption('#backend', backend);
    await page.waitForFunction(
      (want) => document.getElementById('status')!.textContent!.startsWith(want),
      `${label} · git-shell-${backend}`,
    );
    await pg.waitReady();

    await page.click('#tab-git');
    await page.fill('#git-url', `${server.url}/${SHELL_REPO}.git`);
    // the Git tab's author is who the console's commits are by
    await page.fill('#git-author-name', 'Pat Person');
    await page.fill('#git-author-email', 'pat@example.com');
    // the same repository cloned on the other backend answers the same text: start from no answer
    await page.evaluate(() => {
      document.getElementById('git-result')!.hidden = true;
    });
    expect(await clickAndRead(page, '#git-clone')).toMatchObject({ ok: true, result: { ref: 'main' } });

    const clean = await shell('git status');
    expect(clean).toMatchObject({ exit_code: 0, stderr: '' });
    expect(clean.stdout).toBe(
      "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n",
    );

    expect(await shell(`sed -i "s/'hi'/'hello'/" src/app.js`)).toMatchObject({ exit_code: 0 });
    const diff = await shell('git diff');
    expect(diff.exit_code).toBe(0);
    expect(diff.stdout).toContain("-export const greeting = 'hi';\n+export const greeting = 'hello';\n");
    expect(diff.stdout).toMatch(/^diff --git a\/src\/app.js b\/src\/app.js\n/);

    const commit = await shell('git commit -am "Say hello"');
    expect(commit).toMatchObject({ exit_code: 0, stderr: '' });
    expect(commit.stdout).toMatch(
      /^\[main [0-9a-f]{7}\] Say hello\n 1 file changed, 1 insertion\(\+\), 1 deletion\(-\)\n$/,
    );

    const log = await shell('git log --oneline');
    const lines = log.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^[0-9a-f]{7} Say hello$/);
    expect((await shell('git log -1 --format="%an <%ae>"')).stdout).toBe('Pat Person <pat@example.com>\n');
    expect((await shell('git status --porcelain')).stdout).toBe('');
    expect((await shell('git status -sb')).stdout).toBe('## main...origin/main [ahead 1]\n');
  });
});
