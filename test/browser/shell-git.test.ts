import { afterEach, describe, expect, it } from 'vitest';
import type { RemoteWorkspace } from '../../web/client.js';
import type { BackendKind } from '../../web/protocol.js';
import { connect, uniqueName } from './connect.js';

const open: RemoteWorkspace[] = [];
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.close();
});
const ENV = {
  GIT_AUTHOR_NAME: 'Ada Author',
  GIT_AUTHOR_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: '@1700000000 +0100',
  GIT_COMMITTER_NAME: 'Ada Author',
  GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_COMMITTER_DATE: '@1700000000 +0100',
};
type Run = { exit_code: number; stdout: string; stderr: string };
async function run(ws: RemoteWorkspace, command: string): Promise<Run> {
  const r = await ws.call('run_command', { command, env: ENV });
  if (!r.ok) throw new Error(`run_command failed: ${JSON.stringify(r.error)}`);
  return r.result as Run;
}

// The same history made by the real git CLI (git 2.39, the same names, dates and files) gives these hashes.
describe.each<BackendKind>(['opfs', 'indexeddb'])('git in the shell of a Chromium worker on %s', (backend) => {
  it('inits, shows status, diffs an edit, commits it with -am and logs it, as git prints them', async () => {
    const ws = await connect({ backend, name: uniqueName(`shell-git-${backend}`) });
    open.push(ws);
    await ws.call('write_file', { path: 'src/a.txt', content: 'one\ntwo\nthree\n' });
    expect(await run(ws, 'git init -q && git status -s')).toMatchObject({ exit_code: 0, stdout: '?? src/\n' });
    expect(await run(ws, "git add . && git commit -m 'first'")).toMatchObject({
      exit_code: 0,
      stdout: '[master (root-commit) 3b8a0e9] first\n 1 file changed, 3 insertions(+)\n create mode 100644 src/a.txt\n',
    });
    expect((await ws.call('edit_file', { path: 'src/a.txt', old_text: 'two', new_text: '2' })).ok).toBe(true);
    expect((await run(ws, 'git status')).stdout).toBe(
      'On branch master\nChanges not staged for commit:\n  (use "git add <file>..." to update what will be committed)\n' +
        '  (use "git restore <file>..." to discard changes in working directory)\n\tmodified:   src/a.txt\n\n' +
        'no changes added to commit (use "git add" and/or "git commit -a")\n',
    );
    expect((await run(ws, 'git diff')).stdout).toBe(
      'diff --git a/src/a.txt b/src/a.txt\nindex 4cb29ea..f04eb26 100644\n--- a/src/a.txt\n+++ b/src/a.txt\n' +
        '@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n',
    );
    const commit = await run(ws, "git commit -am 'second'");
    expect(commit).toMatchObject({ exit_code: 0 });
    expect(commit.stdout).toBe('[master 361045a] second\n 1 file changed, 1 insertion(+), 1 deletion(-)\n');
    expect((await run(ws, 'git log --oneline')).stdout).toBe('361045a second\n3b8a0e9 first\n');
    expect((await run(ws, 'git status')).stdout).toBe('On branch master\nnothing to commit, working tree clean\n');
  });
});
