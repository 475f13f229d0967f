import { generateText, stepCountIs, type Experimental_SandboxSession } from 'ai';
import { describe, expect, it } from 'vitest';
import { sandpitSandbox, sandpitTools } from '../../src/adapters/ai-sdk/index.js';
// The Editor and Shell import only the Agents SDK's types; its runtime stays out of the page.
import { sandpitEditor } from '../../src/adapters/openai-agents/editor.js';
import { sandpitShell } from '../../src/adapters/openai-agents/shell.js';
import { createMemoryFs, createWorkspace, toolset } from '../../src/index.js';
import { presentBash } from '../../src/toolsets/index.js';
import { scriptedLanguageModel } from '../adapters/scripted-ai-model.js';

// The adapters in Chromium, over the built-in shell: nothing of them needs Node.
describe('the framework adapters in a browser page', () => {
  it("the AI SDK: generateText with the SDK's mock model, and the sandbox session", async () => {
    const ws = createWorkspace({ fs: createMemoryFs({ '/ws/app.ts': 'export const port = 3000;\n' }), root: '/ws' });
    const model = scriptedLanguageModel([
      { calls: [{ name: 'edit_file', input: { path: 'app.ts', old_text: '3000', new_text: '8080' } }] },
      { text: 'done' },
    ]);
    const result = await generateText({
      model,
      tools: await sandpitTools(ws),
      prompt: 'port',
      stopWhen: stepCountIs(4),
    });
    expect(result.text).toBe('done');
    const sandbox: Experimental_SandboxSession = sandpitSandbox(ws);
    expect(await sandbox.run({ command: 'grep -c 8080 app.ts' })).toEqual({ exitCode: 0, stdout: '1\n', stderr: '' });
    await sandbox.writeTextFile({ path: 'src/b.ts', content: 'b\n' });
    expect(await sandbox.readTextFile({ path: 'src/b.ts' })).toBe('b\n');
    await ws.close();
  });

  it('the Agents SDK editor and shell, and the bash session, on the built-in shell', async () => {
    const ws = createWorkspace({
      fs: createMemoryFs({ '/ws/a.txt': 'one\n' }),
      root: '/ws',
      tools: toolset('openai').tools,
    });
    const moved = await sandpitEditor(ws).updateFile({
      type: 'update_file',
      path: 'a.txt',
      diff: '@@\n-one\n+uno\n',
      moveTo: 'sub/a.txt',
    });
    expect(moved?.status).toBe('completed');
    const shell = sandpitShell(ws);
    await shell.run({ commands: ['cd sub', 'export N=7'] });
    const next = await shell.run({ commands: ['echo "$N"; cat a.txt'] });
    expect(next.output[0]!.stdout).toBe('7\nuno\n');
    await ws.close();

    const anthropic = createWorkspace({
      fs: createMemoryFs({ '/ws/x/y.txt': '' }),
      root: '/ws',
      tools: toolset('anthropic').tools,
    });
    await anthropic.call('bash', { command: 'cd x; f() { echo "f in $(pwd)"; }' });
    expect(presentBash(await anthropic.call('bash', { command: 'f' })).content).toBe('f in /x\n');
    await anthropic.call('bash', { restart: true });
    expect(presentBash(await anthropic.call('bash', { command: 'pwd' })).content).toBe('/\n');
    await anthropic.close();
  });
});
