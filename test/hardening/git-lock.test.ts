import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL } from './sizes.js';
import { buildCli, envelopes, runCli } from '../cli/built-cli.js';
import { createRepo, git as gitIn, startGitServer, type GitServer } from '../git/git-server.js';
import { leanExecFileSync } from '../support/lean-spawn.js';

const APPENDS = FULL ? 100 : 30;
const PULLS = FULL ? 8 : 3;
let server: GitServer;
let base: string;

beforeAll(async () => {
  await buildCli();
  server = await startGitServer();
  base = await mkdtemp(join(tmpdir(), 'sandpit-git-lock-'));
});
afterAll(async () => {
  await server?.close();
  if (base) await rm(base, { recursive: true, force: true });
});

const git = (gitdir: string, ...args: string[]) =>
  leanExecFileSync('git', [`--git-dir=${gitdir}`, ...args], { encoding: 'utf8' });

/** Commit `file` on the remote's main through a clone of its bare folder (never through the server, whose loop this would block). */
async function remoteCommit(work: string, file: string): Promise<void> {
  await writeFile(join(work, file), `${file}\n`);
  gitIn(work, 'add', '-A');
  gitIn(work, 'commit', '-q', '-m', `add ${file}`);
  gitIn(work, 'push', '-q', 'origin', 'main');
}

describe('a git verb in one process racing changes in another', () => {
  it(`keeps every append and every commit: ${APPENDS} appends against ${PULLS} pulls`, async () => {
    const bare = createRepo(server, 'race', { 'README.md': '# race\n' });
    const root = join(base, 'ws');
    const cloned = await runCli(['clone', `${server.url}/race.git`, root]);
    expect(cloned.code, cloned.stdout + cloned.stderr).toBe(0);
    const work = join(base, 'remote-work');
    leanExecFileSync('git', ['clone', '-q', bare, work]);
    const transcript = join(base, 'appends.jsonl');
    await writeFile(
      transcript,
      `${Array.from({ length: APPENDS }, (_, i) => JSON.stringify({ tool: 'append_file', args: { path: 'log.txt', content: `line ${i}\n` } })).join('\n')}\n`,
    );

    const appending = runCli(['replay', transcript, '--backend', 'node', '--root', root]);
    const pulls: Array<Record<string, any>> = [];
    for (let p = 0; p < PULLS; p++) {
      await remoteCommit(work, `remote-${p}.txt`);
      const pulled = await runCli(['pull', '--root', root]);
      pulls.push(JSON.parse(pulled.stdout));
    }
    const appended = envelopes((await appending).stdout);

    expect(appended).toHaveLength(APPENDS);
    for (const e of appended) {
      expect(e.ok, JSON.stringify(e)).toBe(true);
      expect(e.result.snapshot_error).toBeUndefined();
    }
    for (const p of pulls) expect(p.ok, JSON.stringify(p)).toBe(true);
    expect((await readFile(join(root, 'log.txt'), 'utf8')).split('\n').filter(Boolean)).toEqual(
      Array.from({ length: APPENDS }, (_, i) => `line ${i}`),
    );
    for (let p = 0; p < PULLS; p++)
      expect(await readFile(join(root, `remote-${p}.txt`), 'utf8')).toBe(`remote-${p}.txt\n`);

    const gitdir = join(root, '.sandpit', 'git');
    // every append's commit is on the branch: none was dropped by a pull moving the ref under it
    const subjects = git(gitdir, 'log', '--format=%s', 'main').split('\n');
    expect(subjects.filter((s) => s.startsWith('append_file'))).toHaveLength(APPENDS);
    expect(git(gitdir, 'show', 'main:log.txt').split('\n').filter(Boolean)).toHaveLength(APPENDS);
    for (let p = 0; p < PULLS; p++) expect(git(gitdir, 'show', `main:remote-${p}.txt`)).toBe(`remote-${p}.txt\n`);
    const fsck = leanExecFileSync('git', [`--git-dir=${gitdir}`, 'fsck', '--full', '--no-reflogs'], {
      encoding: 'utf8',
    });
    const dangling = [...fsck.matchAll(/dangling commit ([0-9a-f]{40})/g)].map((m) =>
      git(gitdir, 'log', '-1', '--format=%s', m[1]!).trim(),
    );
    // Two commits are left unreferenced by the verbs themselves, in one process too: the clone's
    // 'Workspace opened' (the store opens before the fetched history replaces it) and a merging
    // pull's 'Pull main' (the combined files, then recorded as the merge). No other commit may be.
    expect(dangling.filter((s) => s !== 'Pull main' && s !== 'Workspace opened')).toEqual([]);
    expect(fsck).not.toMatch(/missing|broken/);
    console.log(
      `[hardening git lock] ${APPENDS} appends vs ${PULLS} pulls: ${pulls.map((p) => p.result?.status).join(', ')} (loaded machine)`,
    );
  });
});
