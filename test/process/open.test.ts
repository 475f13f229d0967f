import { afterEach, describe, expect, it } from 'vitest';
import { openToolsetWorkspace } from '../../src/node/index.js';
import { openCliWorkspace } from '../../src/node/cli/open.js';
import { tempWorkspace, type TempWorkspace } from './support.js';

let made: TempWorkspace | null = null;
afterEach(async () => {
  await made?.cleanup();
  made = null;
});

describe('opening a Node workspace', () => {
  it('offers the canonical toolset by default, with real processes and the task tools, and names it', async () => {
    made = await tempWorkspace();
    const names = made.ws.listTools().map((t) => t.name);
    expect(made.ws.toolset.name).toBe('canonical');
    expect(names).toEqual(made.ws.toolset.tools.map((t) => t.name));
    expect(names).toEqual(expect.arrayContaining(['read_file', 'run_command', 'task_output', 'list_tasks']));
    const ran = await made.ws.call('run_command', { command: ['node', '-e', 'process.stdout.write(String(6 * 7))'] });
    expect(ran).toMatchObject({ ok: true, result: { exit_code: 0, stdout: '42' } });
  });

  it('offers a seed toolset by name with exactly its own tools, its run_command running real processes', async () => {
    made = await tempWorkspace({ toolset: 'fs_process' });
    const names = made.ws.listTools().map((t) => t.name);
    expect(made.ws.toolset.name).toBe('fs_process');
    expect(names).not.toContain('task_output');
    expect(names).toContain('list_dir');
    const ran = await made.ws.call('run_command', { command: 'node -e "process.stdout.write(String(6*7))"' });
    expect(ran).toMatchObject({ ok: true });
    expect(JSON.stringify(ran)).toContain('42');
  });

  it("keeps a caller's own tool list, Node's tools joining it", async () => {
    const probe = await tempWorkspace();
    const readOnly = probe.ws.toolset.tools.filter((t) => t.name === 'read_file');
    await probe.cleanup();
    made = await tempWorkspace({ tools: readOnly });
    expect(made.ws.listTools().map((t) => t.name)).toEqual([
      'read_file',
      'run_command',
      'task_output',
      'task_wait',
      'task_kill',
      'list_tasks',
    ]);
  });

  it('is the same workspace whether the API, the MCP opener or the CLI opens it', async () => {
    made = await tempWorkspace({ toolset: 'cowork', artifactDir: 'out' });
    const viaToolset = openToolsetWorkspace(made.root, 'cowork', { artifactDir: 'out' });
    const viaCli = await openCliWorkspace(
      { backend: 'node', root: made.root },
      { toolset: 'cowork', artifactDir: 'out' },
    );
    try {
      const listed = made.ws.listTools();
      expect(viaToolset.ws.listTools()).toEqual(listed);
      expect(viaCli.ws.listTools()).toEqual(listed);
      expect(viaToolset.set.toMcp()).toEqual(made.ws.toolset.toMcp());
      expect(viaCli.set.toMcp()).toEqual(made.ws.toolset.toMcp());
    } finally {
      await viaToolset.ws.close();
      await viaCli.ws.close();
    }
  });
});
