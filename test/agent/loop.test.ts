import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createWorkspace,
  runAgent,
  TranscriptRecorder,
  createProvider,
  type AgentEvent,
} from '../../src/index.js';
import { openNodeWorkspace } from '../../src/node/index.js';
import { toOpenAI, toAnthropic } from '../../src/toolsets/export.js';
import { fixed, fixGreeting, fixture, FIX_TASK, TURN } from './conversations.js';
import { folderWith, readAll } from './fixture-folder.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { previousCallIds, sentResults, systemOf } from './requests.js';

let server: ModelServer;
const folders: string[] = [];
beforeAll(async () => {
  server = await startModelServer({ 'fix-openai': fixGreeting, 'fix-anthropic': fixGreeting });
});
afterAll(async () => {
  await server.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

describe.each([
  { api: 'openai' as const, model: 'fix-openai', endpoint: () => `${server.url}/v1` },
  { api: 'anthropic' as const, model: 'fix-anthropic', endpoint: () => server.url },
])('the scripted fix over the $api API, on a real folder', ({ api, model, endpoint }) => {
  const events: AgentEvent[] = [];
  let root: string;
  let outcome: Awaited<ReturnType<typeof runAgent>>;
  let transcript: string;
  let ws: ReturnType<typeof openNodeWorkspace>;

  beforeAll(async () => {
    root = await folderWith(fixture);
    folders.push(root);
    ws = openNodeWorkspace(root);
    const recorder = new TranscriptRecorder();
    outcome = await runAgent({
      workspace: ws,
      task: FIX_TASK,
      provider: createProvider({ api, endpoint: endpoint(), model, apiKey: 'k' }),
      onEvent: (event) => {
        events.push(event);
        recorder.listen(event);
      },
    });
    transcript = recorder.toJsonl();
    await ws.close();
  });

  it("finishes with the model's answer and changes exactly what the script meant", async () => {
    expect(outcome.reason).toBe('answered');
    expect(outcome.steps).toBe(6);
    expect(outcome.text).toContain('the check passes');
    expect(await readAll(root, Object.keys(fixed))).toEqual(fixed);
  });

  it("sent the toolset in the API's own format, a system prompt naming the tools, and the task", () => {
    const [first] = server.requestsFor(model);
    const expected =
      api === 'openai'
        ? toOpenAI(ws.listTools().map((t) => ({ ...t, schema: t.input_schema }) as never))
        : toAnthropic(ws.listTools().map((t) => ({ ...t, schema: t.input_schema }) as never));
    expect(first!.body.tools).toEqual(expected);
    expect(first!.body.stream).toBe(true);
    for (const name of ['read_file', 'apply_patch', 'edit_file', 'run_command', 'undo'])
      expect(systemOf(first!)).toContain(`- ${name}: `);
    const user = first!.body.messages.find((m: any) => m.role === 'user');
    expect(user.content).toBe(FIX_TASK);
  });

  it('answered both parallel reads, each under its own call id', () => {
    const request = server.requestsFor(model)[TURN.reads]!;
    const results = sentResults(request);
    expect(results.map((r) => r.id)).toEqual(previousCallIds(request));
    expect(results.map((r) => r.envelope.result.content)).toEqual([fixture['src/greet.js'], fixture['check.mjs']]);
  });

  it("sent back the patch, the command's output, and the ambiguous edit as its envelope error", () => {
    const requests = server.requestsFor(model);
    expect(sentResults(requests[TURN.patch]!)[0]!.envelope).toMatchObject({
      ok: true,
      tool: 'apply_patch',
      result: { files: [{ path: 'src/greet.js' }] },
    });
    expect(sentResults(requests[TURN.run]!)[0]!.envelope).toMatchObject({
      ok: true,
      result: { exit_code: 0, stdout: 'Hello, sandpit!\n' },
    });
    const ambiguous = sentResults(requests[TURN.ambiguous]!)[0]!;
    expect(ambiguous.envelope).toMatchObject({ ok: false, tool: 'edit_file', error: { code: 'AMBIGUOUS_MATCH' } });
    expect(ambiguous.envelope.error.hint ?? ambiguous.envelope.error.message).toBeTruthy();
    if (api === 'anthropic') expect(ambiguous.is_error).toBe(true);
    expect(sentResults(requests[TURN.recovered]!)[0]!.envelope).toMatchObject({
      ok: true,
      result: { replacements: 1 },
    });
  });

  it('replays the assistant turns it got, text and calls, in the next request', () => {
    const last = server.requestsFor(model).at(-1)!;
    const assistants = last.body.messages.filter((m: any) => m.role === 'assistant');
    expect(assistants).toHaveLength(5);
    const firstText = api === 'openai' ? assistants[0].content : assistants[0].content[0].text;
    expect(firstText).toBe("I'll read the code and the check first.");
  });

  it('reports every step: streamed text, each call and envelope, usage per turn and in total', () => {
    const streamed = events.filter((e) => e.type === 'text' && e.step === 1).map((e) => (e as { delta: string }).delta);
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('')).toBe("I'll read the code and the check first.");
    expect(events.filter((e) => e.type === 'tool_call')).toHaveLength(6);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e as any).envelope.ok)).toEqual([
      true,
      true,
      true,
      true,
      false,
      true,
    ]);
    const usage = events.filter((e) => e.type === 'usage') as Array<Extract<AgentEvent, { type: 'usage' }>>;
    expect(usage.map((u) => u.turn)).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => ({ input_tokens: 100 * n, output_tokens: 20 })),
    );
    expect(events.at(-1)).toEqual({
      type: 'done',
      reason: 'answered',
      steps: 6,
      text: outcome.text,
      usage: { input_tokens: 2100, output_tokens: 120 },
    });
  });

  it('saves a transcript that replays to the same files without the model', async () => {
    const lines = transcript
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.tool)).toEqual([
      'read_file',
      'read_file',
      'apply_patch',
      'run_command',
      'edit_file',
      'edit_file',
    ]);
    const copy = createWorkspace({
      fs: createMemoryFs(Object.fromEntries(Object.entries(fixture).map(([p, c]) => [`/${p}`, c]))),
    });
    for (const line of lines) await copy.call(line.tool, line.args);
    for (const [path, content] of Object.entries(fixed)) {
      const read = await copy.call<{ content: string }>('read_file', { path });
      expect(read.ok ? read.result.content : read.error.code).toBe(content);
    }
  });
});
