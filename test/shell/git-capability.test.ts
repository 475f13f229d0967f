import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { createShellRunner } from '../../src/process/shell-runner.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

const ENV = {
  GIT_AUTHOR_NAME: 'A',
  GIT_AUTHOR_EMAIL: 'a@example.com',
  GIT_COMMITTER_NAME: 'A',
  GIT_COMMITTER_EMAIL: 'a@example.com',
};

function open() {
  const fs = createMemoryFs({ '/a.txt': 'one\n' });
  return { fs, ws: createWorkspace({ fs, processRunner: createShellRunner(fs) }) };
}
const exists = (fs: ReturnType<typeof createMemoryFs>, p: string) =>
  fs.lstat(p).then(
    () => true,
    () => false,
  );

describe("the shell's git is the one writer of the workspace's .git", () => {
  it('writes the repository through run_command, each command line one change in the review log', async () => {
    const { ws, fs } = open();
    const init = await ws.call('run_command', { command: 'git init -q && git add a.txt', env: ENV });
    expect(init.ok && init.result).toMatchObject({ exit_code: 0 });
    expect(await exists(fs, '/.git/HEAD')).toBe(true);
    const commit = await ws.call('run_command', { command: "git commit -qm 'first'", env: ENV });
    expect(commit.ok && commit.result).toMatchObject({ exit_code: 0 });
    const changeId = commit.ok ? (commit.result as { change_id?: string }).change_id : undefined;
    expect(typeof changeId).toBe('string');
    const log = await ws.call('run_command', { command: 'git log --format=%s' });
    expect(log.ok && log.result).toMatchObject({ exit_code: 0, stdout: 'first\n' });
  });

  it('still refuses every other command a write under .git, even in the same line as git', async () => {
    const { ws, fs } = open();
    await ws.call('run_command', { command: 'git init -q', env: ENV });
    const config = new TextDecoder().decode(await fs.readFile('/.git/config'));
    const evil = await ws.call('run_command', {
      command:
        "git add a.txt; printf '[core]\\n\\thooksPath = x\\n' > .git/config; mkdir -p .git/hooks; echo x > .git/hooks/pre-commit",
      env: ENV,
    });
    expect(evil.ok).toBe(false);
    expect(!evil.ok && evil.error.code).toBe('PERMISSION_DENIED');
    expect(new TextDecoder().decode(await fs.readFile('/.git/config'))).toBe(config);
    expect(await exists(fs, '/.git/hooks/pre-commit')).toBe(false);
  });

  it('refuses git config keys that name programs, and never gets a hooks folder or a nested .git', async () => {
    const { ws } = open();
    await ws.call('run_command', { command: 'git init -q', env: ENV });
    const hooks = await ws.call('run_command', { command: 'git config core.hooksPath /tmp/h' });
    expect(hooks.ok && hooks.result).toMatchObject({ exit_code: 128 });
    const fs = createMemoryFs({});
    const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
    const bytes = new TextEncoder().encode('x');
    await expect(
      writer.apply([{ kind: 'write', rel: '.git/hooks/pre-commit', bytes }], { gitCommand: true }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(
      writer.apply([{ kind: 'write', rel: 'sub/.git/config', bytes }], { gitCommand: true }),
    ).rejects.toMatchObject({ code: 'PERMISSION_DENIED' });
    await expect(
      writer.apply([{ kind: 'write', rel: '.GIT/config', bytes }], { gitCommand: true }),
    ).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await expect(writer.apply([{ kind: 'write', rel: '.git/config', bytes }])).rejects.toMatchObject({
      code: 'PERMISSION_DENIED',
    });
    await writer.apply(
      [
        { kind: 'mkdir', rel: '.git' },
        { kind: 'write', rel: '.git/config', bytes },
      ],
      { gitCommand: true },
    );
    expect(new TextDecoder().decode(await fs.readFile('/.git/config'))).toBe('x');
  });

  it('loads its code only with the first git command: nothing imports it statically', () => {
    const shellFiles = readdirSync('src/shell', { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('commands/git/'),
    );
    for (const file of shellFiles) {
      const text = readFileSync(`src/shell/${file}`, 'utf8');
      expect(text, file).not.toMatch(/^import[^;]*from '[./]*(commands\/)?git\//m);
    }
    expect(readFileSync('src/shell/commands/index.ts', 'utf8')).toContain("import('./git/index.js')");
  });
});
