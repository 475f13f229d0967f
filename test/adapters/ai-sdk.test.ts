import { generateText, stepCountIs, type ToolSet } from 'ai';
import { describe, expect, it } from 'vitest';
import { sandpitTools, SandpitToolCallError } from '../../src/adapters/ai-sdk/index.js';
import { createMemoryFs, createWorkspace, toolset } from '../../src/index.js';
import { scriptedLanguageModel } from './scripted-ai-model.js';

const workspace = (files: Record<string, string> = { '/ws/README.md': '# demo\n' }) =>
  createWorkspace({ fs: createMemoryFs(files), root: '/ws' });
const text = (bytes: Uint8Array | string) => (typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));

describe('sandpit-workspace/ai-sdk', () => {
  it('drives a multi-step generateText loop on a memory workspace; a refused call reaches the model as error text and the loop goes on', async () => {
    const ws = workspace();
    // The exports assign to the SDK's own types with no cast.
    const tools: ToolSet = await sandpitTools(ws);
    const model = scriptedLanguageModel([
      { calls: [{ name: 'read_file', input: { path: 'README.md' } }] },
      {
        calls: [
          { name: 'edit_file', input: { path: 'src/missing.ts', old_text: 'a', new_text: 'b' } },
          { name: 'read_file', input: { path: 'README.md', start_line: 'one' } },
        ],
      },
      { calls: [{ name: 'write_file', input: { path: 'src/app.ts', content: 'export const port = 3000;\n' } }] },
      { calls: [{ name: 'edit_file', input: { path: 'src/app.ts', old_text: '3000', new_text: '8080' } }] },
      { text: 'The port is 8080 now.' },
    ]);
    let afterRefusals: string[] = [];
    const result = await generateText({
      model,
      tools,
      prompt: 'Set the port to 8080.',
      stopWhen: stepCountIs(10),
      onStepFinish: async (step) => {
        if (step.stepNumber === 1) afterRefusals = await ws.fs.readdir('/ws');
      },
    });

    expect(result.text).toBe('The port is 8080 now.');
    expect(result.steps).toHaveLength(5);
    expect(text(await ws.fs.readFile('/ws/src/app.ts'))).toBe('export const port = 8080;\n');
    // The first step's result is the tool's result, as the model reads it.
    expect(result.steps[0]!.toolResults[0]).toMatchObject({
      toolName: 'read_file',
      output: { path: 'README.md', content: '# demo\n', total_lines: 1 },
    });
    // Both refusals are the SDK's tool errors, carrying the envelope; nothing was written.
    const errors = result.steps[1]!.content.filter((p) => p.type === 'tool-error');
    expect(errors.map((e) => e.error instanceof SandpitToolCallError && e.error.code)).toEqual([
      'NOT_FOUND',
      'INVALID_ARGUMENTS',
    ]);
    expect(afterRefusals).toEqual(['.sandpit', 'README.md']);
    // What the model was sent next: error text with the code, the problem's path and the hint.
    const sent = model.doGenerateCalls[2]!.prompt.filter((m) => m.role === 'tool').flatMap((m) => m.content);
    const outputs = sent.flatMap((p) => (p.type === 'tool-result' ? [p.output] : []));
    expect(outputs.slice(1).map((o) => o.type)).toEqual(['error-text', 'error-text']);
    const [missing, invalid] = outputs.slice(1).map((o) => (o.type === 'error-text' ? o.value : ''));
    expect(missing).toMatch(/^NOT_FOUND: /);
    expect(invalid).toMatch(/^INVALID_ARGUMENTS: /);
    expect(invalid).toContain('- /start_line: must be integer');
    // Every tool call went through the workspace: each change is in its change log, undoable.
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(text(await ws.fs.readFile('/ws/src/app.ts'))).toBe('export const port = 3000;\n');
    await ws.close();
  });

  it("offers only the named tools and shapes answers by the workspace's toolset", async () => {
    const fileManager = toolset('file_manager');
    const ws = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'one\n' }), root: '/ws', tools: fileManager.tools });
    const tools = await sandpitTools(ws, { toolset: fileManager });
    expect(Object.keys(tools)).toEqual(ws.listTools().map((t) => t.name));
    const model = scriptedLanguageModel([
      { calls: [{ name: 'file_manager', input: { operations: [{ action: 'read_file', path: 'a.txt' }] } }] },
      { text: 'read it' },
    ]);
    const result = await generateText({ model, tools, prompt: 'read a.txt', stopWhen: stepCountIs(3) });
    expect(result.steps[0]!.toolResults[0]!.output).toMatchObject({ ok: true, tool: 'file_manager' });

    const canonical = workspace();
    expect(Object.keys(await sandpitTools(canonical, { only: ['read_file', 'glob'] }))).toEqual(['read_file', 'glob']);
    await expect(sandpitTools(canonical, { only: ['read_file', 'rm_rf'] })).rejects.toThrow(/no tool named rm_rf/);
    await ws.close();
    await canonical.close();
  });
});
