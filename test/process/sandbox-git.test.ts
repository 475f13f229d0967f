import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NodeWorkspaceOptions } from '../../src/node/index.js';
import { bwrapProblem } from '../../src/node/process/sandbox.js';
import { tempWorkspace, type TempWorkspace } from './support.js';

let t: TempWorkspace;
afterEach(async () => {
  await t?.cleanup();
});

type Envelope = { ok: boolean; result?: Record<string, any>; error?: { code: string; message: string } };

async function open(options: NodeWorkspaceOptions = {}): Promise<TempWorkspace> {
  return (t = await tempWorkspace({ sandbox: 'os', snapshots: false, ...options }));
}
async function sh(script: string): Promise<Record<string, any>> {
  const env = (await t.ws.call('run_command', { command: ['sh', '-c', script] })) as Envelope;
  if (!env.ok) throw new Error(`run_command failed: ${JSON.stringify(env.error)}`);
  return env.result!;
}

// The host's git as an editor's git panel or a git-aware prompt runs it: plain, in that folder, no GIT_* of ours.
function hostGit(cwd: string, ...args: string[]): void {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: t.base };
  spawnSync('git', args.length > 0 ? args : ['status'], { cwd, env, stdio: 'ignore' });
}

// A config that runs `touch <marker>` on the host the next time git looks at the work tree.
const armed = (marker: string) => `git config core.fsmonitor 'touch ${marker}'`;

const bwrapMissing = process.platform !== 'linux' || (await bwrapProblem()) !== null;

describe.skipIf(bwrapMissing)('the OS sandbox leaves no repository the host will execute from', () => {
  it('a workspace without .git: git init and an fsmonitor hook fail inside, and host git runs nothing', async () => {
    await open();
    const marker = join(t.base, 'outside', 'fsmonitor-ran');
    const result = await sh(`git init -q . ; ${armed(marker)} ; echo done`);
    expect(result.stdout).toBe('done\n');
    hostGit(t.root);
    expect(existsSync(marker)).toBe(false);
    // The read-only placeholder is gone once the command has ended (.sandpit holds the workspace's lock until it closes).
    expect((await readdir(t.root)).filter((name) => name !== '.sandpit')).toEqual([]);
  });

  it('a repository the command creates below the top (a .git folder, a gitfile, a bare one) is disarmed when it ends', async () => {
    await open();
    const marker = join(t.base, 'outside', 'nested-ran');
    const script = [
      `mkdir sub && cd sub && git init -q && ${armed(marker)} && cd ..`,
      // a bare repository whose work tree is the workspace: git discovers the folder itself
      `git init -q --bare bare && git -C bare config core.worktree .. && git -C bare ${armed(marker).slice(4)}`,
      // a gitfile pointing at a repository kept under another name
      `mkdir -p linked store && git init -q --bare store/repo && git -C store/repo ${armed(marker).slice(4)}`,
      `echo 'gitdir: ../store/repo' > linked/.git`,
      'echo made',
    ].join(' && ');
    const result = await sh(script);
    expect(result.stdout).toBe('made\n');
    for (const dir of ['sub', 'sub/.git.disarmed', 'bare', 'linked', 'store/repo', '.']) {
      hostGit(join(t.root, dir));
      hostGit(join(t.root, dir), 'log');
    }
    expect(existsSync(marker)).toBe(false);
    // Renamed, never deleted: nothing the command made is lost, and the model is told.
    expect(existsSync(join(t.root, 'sub', '.git'))).toBe(false);
    expect(existsSync(join(t.root, 'sub', '.git.disarmed', 'HEAD.disarmed'))).toBe(true);
    expect(existsSync(join(t.root, 'linked', '.git'))).toBe(false);
    expect(existsSync(join(t.root, 'linked', '.git.disarmed'))).toBe(true);
    expect(existsSync(join(t.root, 'bare', 'HEAD'))).toBe(false);
    expect(existsSync(join(t.root, 'store', 'repo', 'HEAD'))).toBe(false);
    expect(result.note).toMatch(/sub\/\.git/);
    expect(result.note).toMatch(/store\/repo/);
    expect(result.note).not.toContain(t.base);
    // the next command may make its own again, and is disarmed the same way; the earlier ones stay as they are
    expect((await sh(`cd sub && git init -q && ${armed(marker)} && echo again`)).note).toMatch(/sub\/\.git/);
    hostGit(join(t.root, 'sub'));
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(t.root, 'sub', '.git.disarmed-2'))).toBe(true);
  });

  it('a repository that was there before stays, read-only: its config and hooks cannot be changed', async () => {
    await open();
    const vendored = join(t.root, 'vendor', 'lib');
    await mkdir(vendored, { recursive: true });
    spawnSync('git', ['init', '-q'], { cwd: vendored });
    const marker = join(t.base, 'outside', 'vendored-ran');
    const result = await sh(
      `cd vendor/lib && (${armed(marker)} 2>/dev/null && echo changed || echo refused); (echo x > .git/hooks/post-checkout) 2>/dev/null || echo no-hook`,
    );
    expect(result.stdout).toBe('refused\nno-hook\n');
    hostGit(vendored);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(join(vendored, '.git', 'HEAD'))).toBe(true);
  });

  it('.sandpit cannot be planted in by a command, and nothing is left behind', async () => {
    await open();
    const result = await sh(
      '(mkdir -p .sandpit/git && echo planted > .sandpit/git/HEAD) 2>/dev/null && echo wrote || echo refused',
    );
    expect(result.stdout).toBe('refused\n');
    expect(existsSync(join(t.root, '.sandpit', 'git'))).toBe(false);
    await t.ws.close();
    expect(existsSync(join(t.root, '.sandpit'))).toBe(false);
  });

  it('with allowGitWrites a command may still make its own repository', async () => {
    await open({ policy: { allowGitWrites: true } });
    expect((await sh('git init -q . && echo ok')).stdout).toBe('ok\n');
    expect(existsSync(join(t.root, '.git', 'HEAD'))).toBe(true);
  });
});
