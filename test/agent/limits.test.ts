import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createProvider,
  createWorkspace,
  runAgent,
  TranscriptRecorder,
  type AgentEvent,
  type ApiKind,
} from '../../src/index.js';
import { startModelServer, type ModelServer, type ScriptTurn } from './model-server.js';
import { sentResults } from './requests.js';

const listing: ScriptTurn = { calls: [{ name: 'list_directory', args: {} }] };
const answer: ScriptTurn = { text: 'All done.' };

let server: ModelServer;
beforeAll(async () => {
  const scripts: Record<string, ScriptTurn[]> = {};
  for (const api of ['openai', 'anthropic']) {
    scripts[`endless-${api}`] = Array.from({ length: 10 }, () => listing);
    scripts[`hang-${api}`] = [{ hang: true, text: 'thinking… ' }];
    scripts[`malformed-${api}`] = [
      {
        text: 'Writing.',
        calls: [
          { name: 'write_file', raw: '{"path": "a.txt", "content": "hi' },
          { name: 'write_file', raw: '["a.txt"]' },
        ],
      },
      { calls: [{ name: 'write_file', args: { path: 'a.txt', content: 'hi' } }] },
      answer,
    ];
    scripts[`refused-${api}`] = [
      {
        calls: [
          { name: 'write_file', raw: '{"path": "a.txt",' },
          { name: 'list_directory', args: {} },
        ],
      },
      answer,
    ];
    scripts[`budget-${api}`] = [listing, listing, listing, answer];
    scripts[`plain-${api}`] = [
      { plain: true, text: 'Listing.', calls: [{ name: 'list_directory', args: {} }] },
      { plain: true, text: 'One file.' },
    ];
    scripts[`same-file-${api}`] = [
      { calls: [{ name: 'read_file', args: { path: 'keep.txt' } }] },
      {
        calls: [
          { name: 'append_file', args: { path: 'keep.txt', content: 'one\n' } },
          { name: 'append_file', args: { path: 'keep.txt', content: 'two\n' } },
          { name: 'append_file', args: { path: 'keep.txt', content: 'three\n' } },
        ],
      },
      answer,
    ];
    scripts[`unknown-${api}`] = [
      {
        calls: [
          { name: 'format_disk', args: {} },
          { name: 'read_file', args: { path: 1 } },
        ],
      },
      answer,
    ];
  }
  server = await startModelServer(scripts);
});
afterAll(async () => server.stop());

const provider = (api: ApiKind, model: string) =>
  createProvider({ api, model, endpoint: api === 'openai' ? `${server.url}/v1` : server.url });
const workspace = () => createWorkspace({ fs: createMemoryFs({ '/keep.txt': 'keep\n' }) });

describe.each(['openai', 'anthropic'] as const)('limits and model mistakes over the %s API', (api) => {
  it('stops at the step limit, after exactly that many model turns', async () => {
    const outcome = await runAgent({
      workspace: workspace(),
      provider: provider(api, `endless-${api}`),
      task: 'list forever',
      maxSteps: 3,
    });
    expect(outcome.reason).toBe('step_limit');
    expect(outcome.steps).toBe(3);
    expect(server.requestsFor(`endless-${api}`)).toHaveLength(3);
  });

  it('stops when the signal fires, mid-stream, and the server sees the client go', async () => {
    const stop = new AbortController();
    const events: AgentEvent[] = [];
    const disconnects = server.disconnects;
    const outcome = await runAgent({
      workspace: workspace(),
      provider: provider(api, `hang-${api}`),
      task: 'think',
      signal: stop.signal,
      onEvent: (event) => {
        events.push(event);
        if (event.type === 'text' && events.filter((e) => e.type === 'text').length === 3) stop.abort();
      },
    });
    expect(outcome.reason).toBe('stopped');
    expect(events.filter((e) => e.type === 'text')).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'stopped', steps: 1 });
    await expect.poll(() => server.disconnects).toBe(disconnects + 1);
  });

  it('stops before calling the model when a signal already fired', async () => {
    const outcome = await runAgent({
      workspace: workspace(),
      provider: provider(api, 'never-asked'),
      task: 'x',
      signal: AbortSignal.abort(),
    });
    expect(outcome).toMatchObject({ reason: 'stopped', steps: 0 });
    expect(server.requestsFor('never-asked')).toHaveLength(0);
  });

  it('answers broken tool-call JSON as INVALID_ARGUMENTS, changes nothing, and carries on', async () => {
    const ws = workspace();
    const outcome = await runAgent({ workspace: ws, provider: provider(api, `malformed-${api}`), task: 'write a.txt' });
    expect(outcome.reason).toBe('answered');
    const [broken, array] = sentResults(server.requestsFor(`malformed-${api}`)[1]!);
    expect(broken!.envelope).toMatchObject({ ok: false, tool: 'write_file', error: { code: 'INVALID_ARGUMENTS' } });
    expect(broken!.envelope.error.message).toMatch(/not valid JSON/);
    expect(array!.envelope).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', message: expect.stringMatching(/one JSON object/) },
    });
    // The first turn wrote nothing: the only change is the corrected call of turn two.
    expect(ws.changes.list().map((c) => c.tool)).toEqual(['write_file']);
    expect(sentResults(server.requestsFor(`malformed-${api}`)[2]!)[0]!.envelope).toMatchObject({
      ok: true,
      result: { created: true },
    });
  });

  it("runs a turn's calls on one file one after another, in the order given, losing none", async () => {
    const ws = workspace();
    await runAgent({ workspace: ws, provider: provider(api, `same-file-${api}`), task: 'append' });
    const read = await ws.call<{ content: string }>('read_file', { path: 'keep.txt' });
    expect(read.ok && read.result.content).toBe('keep\none\ntwo\nthree\n');
    expect(sentResults(server.requestsFor(`same-file-${api}`)[2]!).map((r) => r.envelope.ok)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it('leaves calls it refused out of the transcript, since they changed nothing', async () => {
    const recorder = new TranscriptRecorder();
    const outcome = await runAgent({
      workspace: workspace(),
      provider: provider(api, `refused-${api}`),
      task: 'write',
      onEvent: recorder.listen,
    });
    expect(outcome.reason).toBe('answered');
    expect(recorder.toJsonl()).toBe('{"tool":"list_directory","args":{}}\n');
  });

  it("sends unknown tools and schema mistakes back as the workspace's envelopes", async () => {
    await runAgent({ workspace: workspace(), provider: provider(api, `unknown-${api}`), task: 'x' });
    const [unknown, badType] = sentResults(server.requestsFor(`unknown-${api}`)[1]!);
    expect(unknown!.envelope.error.code).toBe('UNKNOWN_TOOL');
    expect(badType!.envelope).toMatchObject({ error: { code: 'INVALID_ARGUMENTS', problems: [{ path: '/path' }] } });
  });

  it('spends no more than the token budget: no model call starts once it is used up', async () => {
    // Each scripted turn reports 100·n input tokens and 20 output: 120 after one turn, 340 after two.
    const outcome = await runAgent({
      workspace: workspace(),
      provider: provider(api, `budget-${api}`),
      task: 'x',
      tokenBudget: 300,
    });
    expect(outcome).toMatchObject({
      reason: 'token_budget',
      steps: 2,
      usage: { input_tokens: 300, output_tokens: 40 },
    });
    expect(server.requestsFor(`budget-${api}`)).toHaveLength(2);
  });
});

it('takes a whole JSON completion from a server that does not stream', async () => {
  const events: AgentEvent[] = [];
  const outcome = await runAgent({
    workspace: workspace(),
    provider: provider('openai', 'plain-openai'),
    task: 'list',
    onEvent: (e) => events.push(e),
  });
  expect(outcome).toMatchObject({
    reason: 'answered',
    text: 'One file.',
    steps: 2,
    usage: { input_tokens: 300, output_tokens: 40 },
  });
  expect(
    events
      .filter((e) => e.type === 'tool_result')
      .map((e) => (e as any).envelope.result.entries.map((x: any) => x.path)),
  ).toEqual([['keep.txt']]);
});
