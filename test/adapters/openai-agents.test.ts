import {
  Agent,
  applyPatchTool,
  run,
  setTracingDisabled,
  shellTool,
  type AgentInputItem,
  type ApplyPatchOperation,
  type Editor,
  type Shell,
  type Tool,
} from '@openai/agents';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandpitEditor, sandpitFunctionTools, sandpitShell } from '../../src/adapters/openai-agents/index.js';
import { createMemoryFs, createWorkspace, toolset } from '../../src/index.js';
import { say, ScriptedAgentsModel } from './scripted-agents-model.js';

const text = (bytes: Uint8Array | string) => (typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));
const outputsOf = (input: string | AgentInputItem[], type: string) =>
  (typeof input === 'string' ? [] : input).filter((i) => i.type === type);

// The SDK would export traces to OpenAI's servers; nothing here leaves the machine.
beforeAll(() => setTracingDisabled(true));

describe('sandpit-workspace/openai-agents', () => {
  it("run() applies V4A patches through applyPatchTool and runs commands through shellTool, on the openai toolset's workspace", async () => {
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/README.md': '# demo\n' }),
      root: '/ws',
      tools: toolset('openai').tools,
      policy: { confirm: () => true },
    });
    // The exports assign to the SDK's own types with no cast.
    const editor: Editor = sandpitEditor(ws);
    const shell: Shell = sandpitShell(ws);
    const patchCall = (callId: string, operation: ApplyPatchOperation) =>
      ({ type: 'apply_patch_call', callId, status: 'completed', operation }) as const;
    const model = new ScriptedAgentsModel([
      [patchCall('p1', { type: 'create_file', path: 'src/a.txt', diff: '+one\n+two\n+three\n' })],
      [
        patchCall('p2', {
          type: 'update_file',
          path: 'src/a.txt',
          diff: '@@\n-one\n+ONE\n@@\n two\n-three\n+THREE\n*** End of File\n',
        }),
      ],
      [patchCall('p3', { type: 'update_file', path: 'src/a.txt', diff: '@@\n-not there\n+x\n' })],
      [
        {
          type: 'shell_call',
          callId: 's1',
          status: 'completed',
          action: { commands: ['cat src/a.txt', 'ls missing'], timeoutMs: 10_000 },
        },
      ],
      [patchCall('p4', { type: 'delete_file', path: 'README.md' })],
      say('Done.'),
    ]);
    const agent = new Agent({
      name: 'coder',
      model,
      tools: [applyPatchTool({ editor }), shellTool({ shell })],
    });
    const result = await run(agent, 'Edit src/a.txt.', { maxTurns: 10 });

    expect(result.finalOutput).toBe('Done.');
    expect(text(await ws.fs.readFile('/ws/src/a.txt'))).toBe('ONE\ntwo\nTHREE\n');
    expect(await ws.fs.readdir('/ws')).not.toContain('README.md');
    // The failed patch was answered `failed` with the reason, and the file stayed as it was.
    const patched = outputsOf(model.requests[3]!.input, 'apply_patch_call_output');
    expect(patched.map((o) => 'status' in o && o.status)).toEqual(['completed', 'completed', 'failed']);
    const failed = patched[2]!;
    expect('output' in failed && failed.output).toMatch(/^PATCH_CONFLICT: /);
    // Each command's stdout, stderr and exit code went back as shell_call_output.
    const ran = outputsOf(model.requests[4]!.input, 'shell_call_output')[0]!;
    expect('output' in ran && ran.output).toMatchObject([
      { stdout: 'ONE\ntwo\nTHREE\n', outcome: { type: 'exit', exitCode: 0 } },
      { stdout: '', outcome: { type: 'exit', exitCode: 2 } },
    ]);
    // Every applied patch is a snapshot (the failed ones made none), so each can be undone.
    const history = await ws.snapshots!.list(20);
    expect(history.map((h) => h.message)).toEqual([
      'apply_patch: README.md',
      'apply_patch: src/a.txt',
      'apply_patch: src/a.txt',
      'Workspace opened',
    ]);
    await ws.close();
  });

  it('the Editor works on a canonical workspace too, and function tools carry the refusal to the model', async () => {
    const ws = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'one\n' }), root: '/ws' });
    const tools: Tool[] = [
      applyPatchTool({ editor: sandpitEditor(ws) }),
      ...(await sandpitFunctionTools(ws, { only: ['read_file', 'edit_file'] })),
    ];
    const model = new ScriptedAgentsModel([
      [
        {
          type: 'function_call',
          callId: 'f1',
          name: 'read_file',
          arguments: JSON.stringify({
            path: 'a.txt',
            start_line: null,
            end_line: null,
            max_chars: null,
            line_numbers: null,
            encoding: null,
          }),
        },
      ],
      [
        {
          type: 'function_call',
          callId: 'f2',
          name: 'edit_file',
          arguments: JSON.stringify({
            path: 'a.txt',
            old_text: 'zzz',
            new_text: 'x',
            replace_all: null,
            expected_sha256: null,
          }),
        },
      ],
      [
        {
          type: 'apply_patch_call',
          callId: 'p1',
          status: 'completed',
          operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+uno\n' },
        },
      ],
      say('Done.'),
    ]);
    const result = await run(new Agent({ name: 'coder', model, tools }), 'Translate a.txt.', { maxTurns: 6 });
    expect(result.finalOutput).toBe('Done.');
    expect(text(await ws.fs.readFile('/ws/a.txt'))).toBe('uno\n');
    // The strict schema went to the model; the read answered the tool's result.
    const sent = model.requests[0]!.tools.find((t) => t.name === 'read_file');
    expect(sent).toMatchObject({ strict: true, parameters: { additionalProperties: false } });
    const [read, edit] = outputsOf(model.requests[2]!.input, 'function_call_result');
    expect(JSON.stringify(read)).toContain('"content\\":\\"one\\\\n\\"');
    expect(JSON.stringify(edit)).toContain('NO_MATCH: ');
    expect(outputsOf(model.requests[3]!.input, 'apply_patch_call_output')[0]).toMatchObject({
      status: 'completed',
      output: 'Updated a.txt (+1 -1)',
    });
    await ws.close();
  });

  it("an update's moveTo renames the file with its update, in one change, on either toolset", async () => {
    for (const tools of [toolset('openai').tools, undefined]) {
      const ws = createWorkspace({
        fs: createMemoryFs({ '/ws/a.txt': 'one\n' }),
        root: '/ws',
        ...(tools ? { tools } : {}),
      });
      const editor = sandpitEditor(ws);
      const moved = await editor.updateFile({
        type: 'update_file',
        path: 'a.txt',
        diff: '@@\n-one\n+uno\n',
        moveTo: 'b/a.txt',
      });
      expect(moved).toEqual({ status: 'completed', output: 'Updated a.txt, moved to b/a.txt (+1 -1)' });
      expect(text(await ws.fs.readFile('/ws/b/a.txt'))).toBe('uno\n');
      expect(await ws.fs.readdir('/ws')).not.toContain('a.txt');
      // Nothing moves when the update does not apply, nor out of the workspace.
      const stale = await editor.updateFile({
        type: 'update_file',
        path: 'b/a.txt',
        diff: '@@\n-zzz\n+x\n',
        moveTo: 'c.txt',
      });
      expect(stale?.status).toBe('failed');
      const out = await editor.updateFile({
        type: 'update_file',
        path: 'b/a.txt',
        diff: '@@\n-uno\n+x\n',
        moveTo: '../c.txt',
      });
      expect(out?.status).toBe('failed');
      expect(await ws.fs.readdir('/ws/b')).toEqual(['a.txt']);
      expect(text(await ws.fs.readFile('/ws/b/a.txt'))).toBe('uno\n');
      await ws.close();
    }
  });
});
