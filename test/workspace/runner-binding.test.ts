import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  canonicalTools,
  createMemoryFs,
  createRunCommandTool,
  createWorkspace,
  runCommand,
  toolset,
  type ProcessRunner,
  type ToolDefinition,
} from '../../src/index.js';
import { createNodeFs, createNodeRunner, ProcessTaskRegistry } from '../../src/node/index.js';

// One way to bind a runner: `programs` on the definition, which a host's `{ ...tool }` copy carries.
const without = (name: string) => canonicalTools.filter((t) => t.name !== name);
const reworded: ToolDefinition = { ...runCommand, description: 'Run a command in the project sandbox.' };

/** A host runner that answers every command with its argv, and remembers it. */
function echoRunner(seen: string[]): ProcessRunner {
  return {
    async run(request) {
      seen.push(request.argv.join(' '));
      return { exit_code: 0, stdout: 'echoed\n', stderr: '', timed_out: false, truncated: false, duration_ms: 0 };
    },
  };
}

describe("a host's { ...tool } copy of canonical's run_command", () => {
  it("runs on the workspace's built-in shell, keeping the host's words and taking the shell's schema wording", async () => {
    const fs = createMemoryFs({ '/src/a.ts': 'x\n', '/src/b.ts': 'y\n' });
    const ws = createWorkspace({ fs, tools: [...without('run_command'), reworded] });
    const r = await ws.call('run_command', { command: 'ls src | wc -l > count.txt && cat count.txt' });
    expect(r).toMatchObject({ ok: true, result: { exit_code: 0, stdout: '2\n', changed_files: ['count.txt'] } });
    const listed = ws.listTools().find((t) => t.name === 'run_command')!;
    expect(listed.description).toBe('Run a command in the project sandbox.');
    // the schema was not reworded, so it follows the runner: a bash line, not an argv
    expect(JSON.stringify(listed.input_schema)).toMatch(/A bash command line/);
    // the copy as the host made it is untouched: it still waits for a runner
    expect(reworded.programs?.runner).toBeUndefined();
  });

  it("runs on the host's runner given in the workspace's options, under the name the host gave it", async () => {
    const seen: string[] = [];
    const exec: ToolDefinition = { ...runCommand, name: 'exec' };
    const ws = createWorkspace({ fs: createMemoryFs(), tools: [exec], processRunner: echoRunner(seen) });
    expect(await ws.call('exec', { command: 'make all' })).toMatchObject({
      ok: true,
      tool: 'exec',
      result: { stdout: 'echoed\n' },
    });
    expect(seen).toEqual(['make all']);
  });

  it('is NOT_SUPPORTED, like the original, when the workspace turns runners off', async () => {
    const fs = createMemoryFs({ '/a.txt': 'a\n' });
    const ws = createWorkspace({ fs, tools: [reworded], processRunner: false });
    expect(await ws.call('run_command', { command: 'rm a.txt' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_SUPPORTED' },
    });
    expect(new TextDecoder().decode(await fs.readFile('/a.txt'))).toBe('a\n');
  });

  it('keeps a run the host wrote itself: the copy changed it, so it is the host’s behaviour', async () => {
    const own: ToolDefinition = {
      ...runCommand,
      run: async () => ({ exit_code: 0, stdout: 'the host ran it\n', stderr: '', timed_out: false }),
    };
    const ws = createWorkspace({ fs: createMemoryFs(), tools: [own], processRunner: echoRunner([]) });
    expect(await ws.call('run_command', { command: 'ls' })).toMatchObject({
      ok: true,
      result: { stdout: 'the host ran it\n' },
    });
  });

  it("binds fs_process's run_command copied the same way", async () => {
    const fs = createMemoryFs({ '/src/a.ts': 'x\n' });
    const tools = toolset('fs_process').tools.map((t) => (t.name === 'run_command' ? { ...t, title: 'Run' } : t));
    const ws = createWorkspace({ fs, tools });
    const r = await ws.call('run_command', { command: 'ls src | wc -l', path: '.' });
    expect(r).toMatchObject({ ok: true, result: { stdout: '1\n', exit_code: 0 } });
    expect(ws.listTools().find((t) => t.name === 'run_command')).toMatchObject({ title: 'Run' });
  });
});

describe("a tool made over Node's real runner", () => {
  let dir = '';
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));

  it('is never rebound to the built-in shell, nor is a { ...tool } copy of it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandpit-runner-binding-'));
    await writeFile(join(dir, 'a.txt'), 'x\n');
    const real = createRunCommandTool(createNodeRunner(new ProcessTaskRegistry(), { sandbox: 'none' }));
    expect(real.programs?.runner).toBeDefined();
    for (const tool of [real, { ...real, description: 'Run a program on this machine.' }]) {
      // no processRunner: the workspace makes the built-in shell for the tools that wait (undo, restore_snapshot)
      const ws = createWorkspace({
        fs: createNodeFs({ root: dir }),
        root: dir,
        tools: [...without('run_command'), tool],
      });
      // the built-in shell has no `uname` (exit 127); a real process does
      const r = await ws.call('run_command', { command: ['uname', '-s'] });
      expect(r).toMatchObject({ ok: true, result: { exit_code: 0, stdout: 'Linux\n' } });
      expect(ws.listTools().find((t) => t.name === 'run_command')!.description).toBe(tool.description);
      await ws.close();
    }
    expect(await readFile(join(dir, 'a.txt'), 'utf8')).toBe('x\n');
  });
});
