import { describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/create-workspace.js';
import { createMemoryFs } from '../../src/fs/memory.js';
import { canonicalTools } from '../../src/toolsets/canonical.js';
import type { CommandRequest, ProcessRunner } from '../../src/process/process-runner.js';
import { createRunCommandTool, runCommand } from '../../src/tools/run-command.js';
import { splitCommand } from '../../src/process/split-command.js';

describe('splitCommand', () => {
  it('splits like a POSIX shell and expands nothing', () => {
    expect(splitCommand(`git commit -m "fix: a \\"b\\"" --author='A B'`)).toEqual([
      'git',
      'commit',
      '-m',
      'fix: a "b"',
      '--author=A B',
    ]);
    expect(splitCommand('echo $HOME ${PATH} "$X" \'$Y\' \\$Z')).toEqual(['echo', '$HOME', '${PATH}', '$X', '$Y', '$Z']);
    expect(splitCommand('cat a.txt | grep x > out 2>&1')).toEqual([
      'cat',
      'a.txt',
      '|',
      'grep',
      'x',
      '>',
      'out',
      '2',
      '>&',
      '1',
    ]);
    expect(splitCommand('ls src/*.ts ~')).toEqual(['ls', 'src/*.ts', '~']);
    expect(splitCommand('npm test # all of them')).toEqual(['npm', 'test', '#', 'all', 'of', 'them']);
  });
});

describe('run_command in the browser', () => {
  it('is NOT_SUPPORTED when the host turns the runner off, and says why', async () => {
    const ws = createWorkspace({ fs: createMemoryFs(), tools: [...canonicalTools, runCommand], processRunner: false });
    const result = await ws.call('run_command', { command: 'npm test' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('NOT_SUPPORTED');
    expect(result.error.message).toMatch(/process runner/);
    expect(result.error.hint).toBeTruthy();
  });

  it("uses a host's runner with a confined cwd, and refuses background when the runner cannot", async () => {
    const seen: CommandRequest[] = [];
    // A playground's runner: here one that answers `echo` itself.
    const echoRunner: ProcessRunner = {
      async run(request) {
        seen.push(request);
        if (request.argv[0] !== 'echo') throw new Error('only echo');
        return {
          exit_code: 0,
          stdout: `${request.argv.slice(1).join(' ')}\n`,
          stderr: '',
          timed_out: false,
          truncated: false,
          duration_ms: 0,
        };
      },
    };
    const ws = createWorkspace({ fs: createMemoryFs({ 'src/a.txt': 'x' }), tools: [createRunCommandTool(echoRunner)] });
    const result = await ws.call('run_command', { command: 'echo "hi there" $HOME', cwd: 'src' });
    expect(result).toMatchObject({ ok: true, result: { stdout: 'hi there $HOME\n', exit_code: 0 } });
    expect(seen[0]).toMatchObject({
      argv: ['echo', 'hi there', '$HOME'],
      cwd: '/src',
      cwdDisplay: 'src',
      timeoutMs: 30_000,
    });
    expect(await ws.call('run_command', { command: 'echo', cwd: '../up' })).toMatchObject({
      ok: false,
      error: { code: 'OUTSIDE_WORKSPACE' },
    });
    expect(await ws.call('run_command', { command: 'echo', background: true })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SUPPORTED' },
    });
  });
});
