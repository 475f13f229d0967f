import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GIT_LINES } from './git-differential-lines.js';
import { gitIn, memoryBackend, nodeBackend, realGit, shellGit } from './git-harness.js';

const base = mkdtempSync(join(tmpdir(), 'sandpit-git-diff-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe("the shell's git against the real git CLI", () => {
  const realDir = join(base, 'real');
  const oursDir = join(base, 'ours');
  const real = realGit(realDir);
  const ours = shellGit(nodeBackend(oursDir));
  const memory = shellGit(memoryBackend());
  const memoryOut: string[] = [];
  const nodeOut: string[] = [];

  it('prints what git prints, line for line, and exits as it does, over a scripted history', async () => {
    expect(GIT_LINES.length).toBeGreaterThanOrEqual(90);
    const mismatches: string[] = [];
    for (const line of GIT_LINES) {
      const want = real(line);
      const got = await ours(line);
      nodeOut.push(got.stdout);
      memoryOut.push((await memory(line)).stdout);
      const problems: string[] = [];
      if (got.exit !== want.exit) problems.push(`exit ${got.exit} != ${want.exit} (${got.stderr})`);
      if (got.stdout !== want.stdout) problems.push(`stdout\n${got.stdout}\n!=\n${want.stdout}`);
      if ((got.stderr === '') !== (want.stderr === ''))
        problems.push(`stderr ${JSON.stringify(got.stderr)} vs ${JSON.stringify(want.stderr)}`);
      if (problems.length) mismatches.push(`${line}: ${problems.join('; ')}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('prints the same over memory as over real files', () => {
    expect(memoryOut).toEqual(nodeOut);
  });

  it('leaves a repository the real git reads back as identical: fsck clean, same commits, index and stash', () => {
    const fsck = gitIn(oursDir, 'fsck', '--strict', '--no-dangling');
    expect(fsck.stderr).toBe('');
    expect(fsck.exit).toBe(0);
    for (const args of [
      ['log', '--all', '--format=%H %T %P %an %ae %at %cn %ce %ct %s'],
      ['ls-files', '-s'],
      ['status', '--porcelain'],
      ['branch', '-v'],
      ['cat-file', '-p', 'HEAD'],
    ]) {
      expect(gitIn(oursDir, ...args).stdout, args.join(' ')).toBe(gitIn(realDir, ...args).stdout);
    }
  });

  it('fails loudly on network verbs, naming the workspace verb, and on what it does not have', async () => {
    const push = await ours('git push origin main');
    expect(push.exit).not.toBe(0);
    expect(push.stderr).toContain('git_push');
    const clone = await ours('git clone https://example.com/x.git');
    expect(clone.stderr).toContain('git_clone');
    const rebase = await ours('git rebase master');
    expect(rebase.exit).not.toBe(0);
    expect(rebase.stderr).toContain("'rebase'");
    const flag = await ours('git log --graph');
    expect(flag.exit).toBe(129);
    expect(flag.stderr).toContain('--graph');
  });
});
