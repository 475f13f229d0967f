import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryFs } from '../../src/fs/memory.js';
import type { WorkspaceFs } from '../../src/fs/types.js';
import { runShell } from '../../src/shell/run.js';
import { ChangeLog } from '../../src/workspace/change-log.js';
import { FileWriter } from '../../src/workspace/file-writer.js';
import { PathLocks } from '../../src/workspace/locks.js';
import { PathResolver } from '../../src/workspace/paths.js';

afterEach(() => {
  vi.useRealTimers();
});

/** A memory backend whose clock moves a second on each read of a git config: a slow machine, made certain. */
function slowConfigFs(): WorkspaceFs {
  const fs = createMemoryFs({});
  return new Proxy(fs, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (name === 'readFile')
        return (path: string, ...rest: unknown[]) => {
          if (path.endsWith('/.git/config')) vi.setSystemTime(Date.now() + 1000);
          return value.apply(target, [path, ...rest]);
        };
      return value.bind(target);
    },
  });
}

describe("the shell's git commit takes one moment for author and committer, as git does", () => {
  it('prints no Date line when reading the identity spans a second boundary (found by a loaded e2e run)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-03T10:00:00.900Z'));
    const fs = slowConfigFs();
    const writer = new FileWriter(fs, new PathResolver(fs, '/'), new PathLocks(), new ChangeLog(), null);
    const run = (command: string) =>
      runShell({
        fs,
        root: '/',
        command,
        cwd: '.',
        env: { LC_ALL: 'C' },
        timeoutMs: null,
        apply: (steps, options) => writer.apply(steps, { allOrNothing: false, ...options }),
      });
    const setup = await run(
      'git init -q && git config user.name Ada && git config user.email ada@example.com && echo hi > a.txt && git add a.txt',
    );
    expect(setup.exit_code, setup.stderr).toBe(0);
    const commit = await run('git commit -m "Say hello"');
    expect(commit.exit_code, commit.stderr).toBe(0);
    expect(commit.stdout).toMatch(/^\[master \(root-commit\) [0-9a-f]{7}\] Say hello\n 1 file changed/);
    const log = await run('git log --format="%at %ct"');
    const [authored, committed] = log.stdout.trim().split(' ');
    expect(authored).toBe(committed);
  });
});
