import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProvider, runAgent, type AgentEvent } from '../../src/index.js';
import { openNodeWorkspace, taskInbox } from '../../src/node/index.js';

import { folderWith } from './fixture-folder.js';
import { markIdle, PNG_BASE64, writeHearingTools } from './hearing-tools.js';
import { startModelServer, type ModelServer, type RecordedRequest, type ScriptTurn } from './model-server.js';
import { systemOf } from './requests.js';

const scripts: Record<string, ScriptTurn[]> = {
  notes: [
    { calls: [{ name: 'indexer', args: {} }] },
    { calls: [{ name: 'task_wait', args: { task_id: 'task_1', timeout_seconds: 10 } }] },
    { text: 'Indexed.' },
  ],
  wake: [
    { calls: [{ name: 'reviewer', args: {} }] },
    { text: 'The review runs in the background; I will wait.' },
    { text: 'Decided X: keep it.' },
    { text: 'The review is done.' },
  ],
  expire: [{ calls: [{ name: 'sleeper', args: {} }] }, { text: 'Waiting for the sleeper.' }],
  // The task exits while the second turn is out: the model answers only after the exit.
  midturn: [
    { calls: [{ name: 'quick', args: {} }] },
    { waitFor: () => taskExited, calls: [{ name: 'read_file', args: { path: 'a.txt' } }] },
    { text: 'Counted.' },
  ],
  images: [{ calls: [{ name: 'chart', args: {} }] }, { text: 'A chart.' }],
};

let server: ModelServer;
// Settles when the running test's workspace sees a background task exit.
let taskExited: Promise<unknown> = Promise.resolve();
let toolsDir: string;
const folders: string[] = [];
beforeAll(async () => {
  const models: Record<string, ScriptTurn[]> = {};
  for (const [name, turns] of Object.entries(scripts))
    for (const api of ['openai', 'anthropic']) models[`${name}-${api}`] = turns;
  models['images-blind-openai'] = scripts.images!;
  models['images-blind-anthropic'] = scripts.images!;
  for (const api of ['openai', 'anthropic'])
    for (const kind of ['unseeing', 'capless']) models[`images-${kind}-${api}`] = scripts.images!;
  server = await startModelServer(models);
  toolsDir = await mkdtemp(join(tmpdir(), 'sandpit-hear-tools-'));
  folders.push(toolsDir);
  await writeHearingTools(toolsDir);
});
afterAll(async () => {
  await server.stop();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** The request's messages as the API got them, with the system prompt first for OpenAI. */
const messagesOf = (r: RecordedRequest) => r.body.messages as any[];
const json = (value: unknown) => JSON.stringify(value);

describe.each(['openai', 'anthropic'] as const)('the agent hears its tools over the %s API', (api) => {
  async function run(script: string, extra: { maxBackgroundWaitMinutes?: number; vision?: boolean } = {}) {
    const root = await folderWith({ 'a.txt': 'a\n' });
    folders.push(root);
    const ws = openNodeWorkspace(root, { toolsDir, caps: { vision: extra.vision ?? false } });
    const inbox = taskInbox(ws.tasks);
    taskExited = new Promise((resolve) => {
      const off = ws.tasks.onEvent((e) => {
        if (e.type === 'task_exit') {
          off();
          resolve(e);
        }
      });
    });
    const events: AgentEvent[] = [];
    const model = `${script}-${api}`;
    // The background tools take their steps when the run waits (hearing-tools.ts), not on a clock.
    markIdle(toolsDir, 0);
    let waits = 0;
    try {
      const outcome = await runAgent({
        workspace: ws,
        task: 'Do the task.',
        inbox,
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'waiting') markIdle(toolsDir, ++waits);
        },
        provider: createProvider({
          api,
          endpoint: api === 'openai' ? `${server.url}/v1` : server.url,
          model,
          vision: extra.vision ?? false,
        }),
        ...(extra.maxBackgroundWaitMinutes !== undefined
          ? { maxBackgroundWaitMinutes: extra.maxBackgroundWaitMinutes }
          : {}),
      });
      return { outcome, events, requests: server.requestsFor(model) };
    } finally {
      inbox.close();
      await ws.close();
    }
  }

  it('appends notes as [info: ...] at the end of the next request and nowhere else, leaving the prompt and history byte-identical', async () => {
    const { outcome, requests } = await run('notes');
    expect(outcome.reason).toBe('answered');
    expect(requests).toHaveLength(3);
    // The notes came while task_wait ran, so only the third request carries them, at its very end.
    expect(json(requests[0]!.body)).not.toContain('[info');
    expect(json(requests[1]!.body)).not.toContain('[info');
    const last = messagesOf(requests[2]!).at(-1)!;
    const tail = api === 'openai' ? last.content : last.content.at(-1).text;
    expect(last.role).toBe('user');
    expect(tail).toBe(
      '[info: indexing 40% done]\n[info: background task task_1 (indexer) exited with code 0; result: indexed 12 files; no files produced]',
    );
    expect(json(requests[2]!.body).split('[info').length - 1).toBe(2);
    if (api === 'anthropic') expect(last.content.slice(0, -1).every((b: any) => b.type === 'tool_result')).toBe(true);
    // The system prompt, the tools and every earlier message are the same bytes: a prompt cache still hits.
    expect(systemOf(requests[2]!)).toBe(systemOf(requests[0]!));
    expect(json(requests[2]!.body.tools)).toBe(json(requests[0]!.body.tools));
    const before = messagesOf(requests[1]!);
    expect(json(messagesOf(requests[2]!).slice(0, before.length))).toBe(json(before));
  });

  it('wakes an idle run for a wake note, then again for the exit with the result and the files', async () => {
    const { outcome, events, requests } = await run('wake', { maxBackgroundWaitMinutes: 1 });
    expect(outcome).toMatchObject({ reason: 'answered', steps: 4, text: 'The review is done.' });
    expect(events.filter((e) => e.type === 'waiting')).toHaveLength(2);
    const woke = messagesOf(requests[2]!).at(-1)!;
    expect(woke).toEqual({ role: 'user', content: '[info: need your decision on X]' });
    const exit = messagesOf(requests[3]!).at(-1)!;
    expect(exit.role).toBe('user');
    expect(exit.content).toBe(
      '[info: background task task_1 (reviewer) exited with code 0; result: review finished: 0 problems; files produced: review.md (18 bytes)]',
    );
    expect(json(messagesOf(requests[3]!).slice(0, messagesOf(requests[2]!).length))).toBe(
      json(messagesOf(requests[2]!)),
    );
  });

  it('delivers an exit that came while the model was mid-turn at the end of the next request', async () => {
    const { outcome, requests } = await run('midturn');
    expect(outcome).toMatchObject({ reason: 'answered', steps: 3, text: 'Counted.' });
    // The second request went out before the exit, so it carries no note; the third ends with it, after the result.
    expect(json(requests[1]!.body)).not.toContain('[info');
    const exitNote =
      '[info: background task task_1 (quick) exited with code 0; result: counted 7 words; files produced: count.txt (2 bytes)]';
    const last = messagesOf(requests[2]!).at(-1)!;
    expect(last.role).toBe('user');
    if (api === 'openai') {
      expect(last.content).toBe(exitNote);
      expect(messagesOf(requests[2]!).at(-2)).toMatchObject({ role: 'tool' });
    } else {
      expect(last.content.at(-1)).toEqual({ type: 'text', text: exitNote });
      expect(last.content[0]).toMatchObject({ type: 'tool_result' });
    }
    expect(json(requests[2]!.body).split('[info').length - 1).toBe(1);
    const before = messagesOf(requests[1]!);
    expect(json(messagesOf(requests[2]!).slice(0, before.length))).toBe(json(before));
  });

  it('ends the run when the background wait runs out', async () => {
    const started = Date.now();
    const { outcome, events, requests } = await run('expire', { maxBackgroundWaitMinutes: 0.01 });
    expect(outcome).toMatchObject({ reason: 'answered', steps: 2, text: 'Waiting for the sleeper.' });
    expect(requests).toHaveLength(2);
    expect(events.some((e) => e.type === 'waiting' && e.tasks === 1)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
  });

  it("sends an attached image as the API's image block to a model with vision, not as base64 in the text", async () => {
    const { requests } = await run('images', { vision: true });
    const messages = messagesOf(requests[1]!);
    const text = json(messages);
    if (api === 'anthropic') {
      const result = messages.at(-1)!.content[0];
      expect(result.type).toBe('tool_result');
      expect(result.content[1]).toEqual({
        type: 'image',
        source: { type: 'base64', media_type: 'image/png', data: PNG_BASE64 },
      });
      expect(JSON.parse(result.content[0].text).result).toMatchObject({
        output: 'drew chart.png; caps vision=true,audio=false,pdf=false,video=false',
        media: [{ name: 'chart.png', attached: true }],
      });
    } else {
      const tool = messages.at(-2)!;
      expect(tool.role).toBe('tool');
      expect(JSON.parse(tool.content).result.media).toEqual([
        { name: 'chart.png', mime: 'image/png', size_bytes: 68, attached: true },
      ]);
      const user = messages.at(-1)!;
      expect(user.role).toBe('user');
      expect(user.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_BASE64}` } });
    }
    expect(text.split(PNG_BASE64).length - 1).toBe(1);
  });

  it('drops the image with the reason when the model has no vision, and the rest of the result still arrives', async () => {
    const root = await folderWith({});
    folders.push(root);
    const ws = openNodeWorkspace(root, { toolsDir, caps: { vision: false } });
    const model = `images-blind-${api}`;
    try {
      await runAgent({
        workspace: ws,
        task: 'Chart it.',
        provider: createProvider({ api, endpoint: api === 'openai' ? `${server.url}/v1` : server.url, model }),
      });
    } finally {
      await ws.close();
    }
    const messages = messagesOf(server.requestsFor(model)[1]!);
    expect(json(messages)).not.toContain(PNG_BASE64);
    const content = api === 'openai' ? messages.at(-1)!.content : messages.at(-1)!.content[0].content;
    expect(JSON.parse(content).result).toMatchObject({
      output: expect.stringContaining('vision=false'),
      media_dropped: [{ name: 'chart.png', reason: 'the model cannot take image input' }],
    });
  });

  it('tells the tools what a provider without vision takes, though the workspace allows images, and sends no base64', async () => {
    const root = await folderWith({});
    folders.push(root);
    // No caps option: the workspace's defaults allow images; the provider, created without vision, takes none.
    const ws = openNodeWorkspace(root, { toolsDir });
    const model = `images-unseeing-${api}`;
    try {
      await runAgent({
        workspace: ws,
        task: 'Chart it.',
        provider: createProvider({ api, endpoint: api === 'openai' ? `${server.url}/v1` : server.url, model }),
      });
      // The run lent its provider's caps only for the run.
      expect(ws.caps).toEqual({ vision: true, audio: false, pdf: true, video: false });
    } finally {
      await ws.close();
    }
    const messages = messagesOf(server.requestsFor(model)[1]!);
    expect(json(messages)).not.toContain(PNG_BASE64);
    const content = api === 'openai' ? messages.at(-1)!.content : messages.at(-1)!.content[0].content;
    expect(JSON.parse(content).result).toMatchObject({
      output: 'drew chart.png; caps vision=false,audio=false,pdf=false,video=false',
      media_dropped: [{ name: 'chart.png', reason: 'the model cannot take image input' }],
    });
  });

  it('drops an image a workspace without caps attached, when the provider cannot see, with the same reason', async () => {
    const root = await folderWith({});
    folders.push(root);
    const ws = openNodeWorkspace(root, { toolsDir });
    // A workspace that exposes no caps (a custom one, a worker client): the tool still attaches the image.
    const capless = { call: ws.call.bind(ws), listTools: () => ws.listTools() };
    const model = `images-capless-${api}`;
    try {
      await runAgent({
        workspace: capless,
        task: 'Chart it.',
        provider: createProvider({ api, endpoint: api === 'openai' ? `${server.url}/v1` : server.url, model }),
      });
    } finally {
      await ws.close();
    }
    const messages = messagesOf(server.requestsFor(model)[1]!);
    expect(json(messages)).not.toContain(PNG_BASE64);
    const content = api === 'openai' ? messages.at(-1)!.content : messages.at(-1)!.content[0].content;
    expect(JSON.parse(content).result).toMatchObject({
      output: 'drew chart.png; caps vision=true,audio=false,pdf=true,video=false',
      media_dropped: [{ name: 'chart.png', reason: 'the model cannot take image input' }],
    });
    expect(JSON.parse(content).result.media).toBeUndefined();
  });
});
