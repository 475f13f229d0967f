import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryFs, createWorkspace, toolset, type ProcessRunner } from '../../src/index.js';
import { fsProcessTools } from '../../src/toolsets/fs-process.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import { openCliWorkspace } from '../../src/node/cli/open.js';

const text = async (fs: ReturnType<typeof createMemoryFs>, p: string) =>
  fs.readFile(p).then(
    (b) => new TextDecoder().decode(b),
    () => null,
  );
const seed = () =>
  createMemoryFs({
    '/src/app.ts': 'const a = 1; // TODO tidy\nconst b = 2;\n',
    '/src/util.ts': 'export {};\n',
    '/notes.md': '# notes\n',
  });

describe('createWorkspace({ fs }) without a runner: the built-in shell', () => {
  it('runs grep and sed through run_command, as one change that undo takes back', async () => {
    const fs = seed();
    const ws = createWorkspace({ fs });
    const found = await ws.call('run_command', { command: 'grep -rn TODO src | cut -d: -f1,2' });
    expect(found).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: 'src/app.ts:1\n', stderr: '', timed_out: false },
    });
    const edited = await ws.call('run_command', {
      command: "sed -i 's/const b = 2/const b = 3/' src/app.ts && grep -c 'b = 3' src/app.ts",
    });
    expect(edited.ok && edited.result).toMatchObject({ exit_code: 0, stdout: '1\n', changed_files: ['src/app.ts'] });
    const changeId = edited.ok ? edited.result.change_id : undefined;
    expect(ws.changes.get(changeId!)?.unified_diff).toMatch(/-const b = 2;\n\+const b = 3;/);
    expect(await text(fs, '/src/app.ts')).toBe('const a = 1; // TODO tidy\nconst b = 3;\n');
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await text(fs, '/src/app.ts')).toBe('const a = 1; // TODO tidy\nconst b = 2;\n');
    const tool = ws.listTools().find((t) => t.name === 'run_command')!;
    expect(tool.description).toMatch(/bash command line/);
  });

  it('runs the shell under a root other than /, and `node` says it is not available (exit 127)', async () => {
    const fs = createMemoryFs({ '/ws/a.txt': 'a\n', '/other.txt': 'outside\n' });
    const ws = createWorkspace({ fs, root: '/ws' });
    const r = await ws.call('run_command', { command: 'ls /; cat ../other.txt; node -e 1' });
    expect(r.ok && r.result).toMatchObject({ exit_code: 127, stdout: 'a.txt\n' });
    expect(r.ok && r.result.stderr).toMatch(
      /cat: \.\.\/other\.txt: No such file or directory\nnode: not available here/,
    );
  });

  it('turns run_command off with processRunner: false or null: NOT_SUPPORTED, nothing run', async () => {
    for (const off of [false, null] as const) {
      const fs = seed();
      const ws = createWorkspace({ fs, processRunner: off });
      const r = await ws.call('run_command', { command: 'rm -r src' });
      expect(r).toMatchObject({
        ok: false,
        error: { code: 'NOT_SUPPORTED', message: expect.stringMatching(/process runner/) },
      });
      expect(await text(fs, '/src/util.ts')).toBe('export {};\n');
      expect(ws.listTools().find((t) => t.name === 'run_command')!.description).toMatch(/No shell is involved/);
    }
  });

  it("puts a host runner behind every run_command made without one, fs_process's included", async () => {
    const seen: string[] = [];
    const echo: ProcessRunner = {
      async run(request) {
        seen.push(request.argv.join(' '));
        return { exit_code: 0, stdout: 'ran\n', stderr: '', timed_out: false, truncated: false, duration_ms: 0 };
      },
    };
    const ws = createWorkspace({ fs: seed(), tools: fsProcessTools(), processRunner: echo });
    expect(await ws.call('run_command', { command: 'make all' })).toMatchObject({
      ok: true,
      result: { stdout: 'ran\n', exit_code: 0 },
    });
    expect(seen).toEqual(['make all']);
  });

  it('gives fs_process the shell too, worded for a shell', async () => {
    const fs = seed();
    const ws = createWorkspace({ fs, tools: toolset('fs_process').tools });
    const r = await ws.call('run_command', { command: 'ls src | wc -l > count.txt; cat count.txt', path: '.' });
    expect(r).toMatchObject({ ok: true, result: { stdout: '2\n', exit_code: 0, timed_out: false } });
    expect(await text(fs, '/count.txt')).toBe('2\n');
    expect(ws.listTools().find((t) => t.name === 'run_command')!.description).toMatch(/^Run a bash command line/);
  });
});

describe('Node entries keep real processes', () => {
  let dir = '';
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('openNodeWorkspace runs the real program, never the built-in shell', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandpit-default-runner-'));
    await writeFile(join(dir, 'a.txt'), 'x\n');
    for (const name of ['canonical', 'fs_process'] as const) {
      const ws = openNodeWorkspace(dir, { toolset: name, sandbox: 'none' });
      // The shell has no `uname`; a real process does.
      const r = await ws.call<{ exit_code: number; stdout: string }>('run_command', { command: 'uname -s' });
      expect(r.ok && r.result).toMatchObject({ exit_code: 0, stdout: 'Linux\n' });
      expect(ws.listTools().find((t) => t.name === 'run_command')!.description).not.toMatch(/bash command line/);
      await ws.close();
    }
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('x\n');
  });

  it('the CLI over memory does not swap the shell in: run_command stays NOT_SUPPORTED', async () => {
    const { ws } = await openCliWorkspace({ backend: 'memory' } as Parameters<typeof openCliWorkspace>[0]);
    expect(await ws.call('run_command', { command: 'echo hi' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SUPPORTED' },
    });
  });
});
