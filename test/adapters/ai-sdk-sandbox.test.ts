import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, jsonSchema, stepCountIs, tool, type Experimental_SandboxSession } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { sandpitSandbox, SandpitToolCallError } from '../../src/adapters/ai-sdk/index.js';
import { createMemoryFs, createWorkspace, type Workspace } from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import { scriptedLanguageModel } from './scripted-ai-model.js';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const drain = async (stream: ReadableStream<Uint8Array>) =>
  text(new Uint8Array(await new Response(stream).arrayBuffer()));

let open: Workspace | null = null;
let folder: string | null = null;
afterEach(async () => {
  await open?.close();
  open = null;
  if (folder) rmSync(folder, { recursive: true, force: true });
  folder = null;
});

describe('sandpit-workspace/ai-sdk: the sandbox session', () => {
  it('reads, writes, lists, stats, deletes and runs through the workspace tools (memory, built-in shell)', async () => {
    const ws = (open = createWorkspace({ fs: createMemoryFs({ '/ws/a.txt': 'one\ntwo\nthree\n' }), root: '/ws' }));
    // The official type, assigned with no cast.
    const sandbox: Experimental_SandboxSession = sandpitSandbox(ws);
    expect(sandbox.description).toMatch(/Sandpit workspace/);
    expect(await sandbox.readTextFile({ path: 'a.txt', startLine: 2, endLine: 9 })).toBe('two\nthree\n');
    expect(await sandbox.readTextFile({ path: 'missing.txt' })).toBeNull();
    await sandbox.writeTextFile({ path: 'src/new.ts', content: 'export {};\n' });
    expect(text((await sandbox.readBinaryFile({ path: 'src/new.ts' }))!)).toBe('export {};\n');
    await sandbox.writeBinaryFile({ path: 'bin/blob', content: new Uint8Array([0, 255, 1]) });
    expect([...(await ws.fs.readFile('/ws/bin/blob'))]).toEqual([0, 255, 1]);
    expect(await sandbox.stat({ path: 'bin/blob' })).toEqual({ type: 'file', size: 3 });
    expect(await sandbox.stat({ path: 'src' })).toEqual({ type: 'directory', size: 0 });
    expect(await sandbox.stat({ path: 'nope' })).toBeNull();
    expect((await sandbox.listDirectory({ path: '.' }))!.map((e) => `${e.type}:${e.name}`).sort()).toEqual(
      expect.arrayContaining(['directory:bin', 'directory:src', 'file:a.txt']),
    );
    expect(await sandbox.listDirectory({ path: 'nope' })).toBeNull();
    expect(
      await sandbox.run({ command: 'cd src && echo "$GREETING" > hi.txt && cat hi.txt', env: { GREETING: 'hi' } }),
    ).toEqual({ exitCode: 0, stdout: 'hi\n', stderr: '' });
    expect((await sandbox.run({ command: 'exit 3' })).exitCode).toBe(3);
    expect(await sandbox.deleteFile({ path: 'src/hi.txt' })).toBe(true);
    expect(await sandbox.deleteFile({ path: 'src/hi.txt' })).toBe(false);
    await expect(sandbox.readTextFile({ path: '../outside' })).rejects.toBeInstanceOf(SandpitToolCallError);
    // Each write was a change of the workspace: undo takes the last one back.
    expect((await ws.call('undo', {})).ok).toBe(true);
    expect(await sandbox.readTextFile({ path: 'src/hi.txt' })).toBe('hi\n');
  });

  it("generateText with the SDK's mock model: tools reach the workspace through experimental_sandbox", async () => {
    const ws = (open = createWorkspace({
      fs: createMemoryFs({ '/ws/app.ts': 'export const port = 3000;\n' }),
      root: '/ws',
    }));
    const input = jsonSchema<{ command: string }>({
      type: 'object',
      properties: { command: { type: 'string' } },
      required: ['command'],
    });
    const tools = {
      bash: tool({
        description: 'Run a command in the sandbox.',
        inputSchema: input,
        execute: async ({ command }, { experimental_sandbox }) => experimental_sandbox!.run({ command }),
      }),
      read: tool({
        description: 'Read a file of the sandbox.',
        inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } } }),
        execute: async ({ path }, { experimental_sandbox }) => experimental_sandbox!.readTextFile({ path }),
      }),
    };
    const model = scriptedLanguageModel([
      { calls: [{ name: 'read', input: { path: 'app.ts' } }] },
      { calls: [{ name: 'bash', input: { command: "sed -i 's/3000/8080/' app.ts && grep -c 8080 app.ts" } }] },
      { text: 'done' },
    ]);
    const result = await generateText({
      model,
      tools,
      experimental_sandbox: sandpitSandbox(ws),
      prompt: 'Move the port to 8080.',
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('done');
    expect(result.steps[0]!.toolResults[0]!.output).toBe('export const port = 3000;\n');
    expect(result.steps[1]!.toolResults[0]!.output).toEqual({ exitCode: 0, stdout: '1\n', stderr: '' });
    expect(text(await ws.fs.readFile('/ws/app.ts'))).toBe('export const port = 8080;\n');
  });

  it('on node: run in the OS sandbox, spawn streams a background task, kill ends it', async () => {
    folder = mkdtempSync(join(tmpdir(), 'sandpit-aisdk-'));
    writeFileSync(join(folder, 'a.txt'), 'a\n');
    const ws = (open = openNodeWorkspace(folder));
    const sandbox = sandpitSandbox(ws);
    const ran = await sandbox.run({
      command: 'echo "$X" > b.txt; cat a.txt b.txt; echo oops >&2; exit 2',
      env: { X: 'x' },
    });
    expect(ran).toEqual({ exitCode: 2, stdout: 'a\nx\n', stderr: 'oops\n' });
    expect(readFileSync(join(folder, 'b.txt'), 'utf8')).toBe('x\n');

    const proc = await sandbox.spawn({ command: 'printf out; printf err >&2; exit 5' });
    const [out, err, done] = await Promise.all([drain(proc.stdout), drain(proc.stderr), proc.wait()]);
    expect({ out, err, done }).toEqual({ out: 'out', err: 'err', done: { exitCode: 5 } });

    const long = await sandbox.spawn({ command: 'echo started; exec sleep 60' });
    await long.kill();
    expect((await long.wait()).exitCode).toBe(-1);
    expect(await drain(long.stdout)).toMatch(/started|^$/);
    await expect(sandbox.spawn({ command: 'cat', stdin: true })).rejects.toThrow(/stdin/);
  });
});
