import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRepo, startGitServer, type GitServer } from '../git/git-server.js';
import { clickAndRead } from './git-steps.js';
import { runForm, startPlayground, type Playground } from './playground.js';

/**
 * Issue 39: git in the playground's shell after a clone through the Git tab, on both persistent
 * backends of one page: `git status`, an edit, `git diff`, `git commit -am`, `git log --oneline`,
 * typed into the console's run_command as a person would.
 */
const REPO = 'e2e-shell-git';
const seed = { 'README.md': '# Shell git\n', 'src/app.js': "export const greeting = 'hi';\n" };

let pg: Playground;
let server: GitServer;
let page: Page;
beforeAll(async () => {
  server = await startGitServer();
  createRepo(server, REPO, seed);
  pg = await startPlayground({ storage: 'opfs' });
  page = pg.page;
}, 120_000);
afterAll(async () => {
  await pg?.stop();
  await server?.close();
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
    await page.fill('#git-url', `${server.url}/${REPO}.git`);
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
