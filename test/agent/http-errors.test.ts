import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMemoryFs,
  createProvider,
  createWorkspace,
  runAgent,
  type AgentEvent,
  type ApiKind,
} from '../../src/index.js';
import { startModelServer, type ModelServer, type ScriptTurn } from './model-server.js';

const KEY = 'sk-test-right';
let server: ModelServer;
beforeAll(async () => {
  const scripts: Record<string, ScriptTurn[]> = {};
  for (const api of ['openai', 'anthropic']) {
    scripts[`ok-${api}`] = [{ text: 'Hello.' }];
    scripts[`busy-${api}`] = [{ status: 429, retryAfter: '0' }, { status: 503 }, { text: 'Finally.' }];
    scripts[`limited-${api}`] = Array.from({ length: 5 }, () => ({
      status: 429,
      retryAfter: '0',
      message: 'Rate limit reached for requests',
    }));
    scripts[`wait-${api}`] = [{ status: 429, retryAfter: '1' }, { text: 'Waited.' }];
    scripts[`no-tools-${api}`] = [
      { status: 400, message: 'registry.ollama.ai/library/gemma:2b does not support tools' },
    ];
    scripts[`no-jinja-${api}`] = [{ status: 500, message: 'tools param requires --jinja flag' }];
  }
  server = await startModelServer(scripts, { apiKey: KEY });
});
afterAll(async () => server.stop());

async function run(api: ApiKind, model: string, extra: { apiKey?: string; endpoint?: string; retries?: number } = {}) {
  const events: AgentEvent[] = [];
  const provider = createProvider({
    api,
    model,
    apiKey: extra.apiKey ?? KEY,
    endpoint: extra.endpoint ?? (api === 'openai' ? `${server.url}/v1` : server.url),
    retry: { retries: extra.retries ?? 4, base_delay_ms: 1, max_delay_ms: 2000 },
  });
  const outcome = await runAgent({
    workspace: createWorkspace({ fs: createMemoryFs() }),
    provider,
    task: 'hi',
    onEvent: (e) => events.push(e),
  });
  return {
    outcome,
    events,
    errors: events.filter((e) => e.type === 'error') as Array<Extract<AgentEvent, { type: 'error' }>>,
  };
}

describe.each(['openai', 'anthropic'] as const)('reaching the model over the %s API', (api) => {
  it('sends the key the API expects', async () => {
    const { outcome } = await run(api, `ok-${api}`);
    expect(outcome).toMatchObject({ reason: 'answered', text: 'Hello.' });
    const headers = server.requestsFor(`ok-${api}`)[0]!.headers;
    if (api === 'openai') expect(headers.authorization).toBe(`Bearer ${KEY}`);
    else expect([headers['x-api-key'], headers['anthropic-version']]).toEqual([KEY, '2023-06-01']);
  });

  it('a wrong key is a clear UNAUTHORIZED error, not retried, and never echoes the key', async () => {
    const { outcome, errors } = await run(api, `ok-${api}`, { apiKey: 'sk-test-wrong' });
    expect(outcome.reason).toBe('error');
    expect(errors).toEqual([expect.objectContaining({ code: 'UNAUTHORIZED', status: 401 })]);
    expect(errors[0]!.message).toMatch(/Check the API key/);
    expect(errors[0]!.message).not.toContain('sk-test-wrong');
  });

  it('retries 429 and 5xx with backoff, then carries on', async () => {
    const { outcome, events } = await run(api, `busy-${api}`);
    expect(outcome).toMatchObject({ reason: 'answered', text: 'Finally.' });
    expect(events.filter((e) => e.type === 'retry').map((e) => (e as { status: number }).status)).toEqual([429, 503]);
    expect(server.requestsFor(`busy-${api}`)).toHaveLength(3);
  });

  it('honours Retry-After', async () => {
    const { outcome, events } = await run(api, `wait-${api}`);
    expect(outcome.reason).toBe('answered');
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ attempt: 1, status: 429, delay_ms: 1000 });
  });

  it('gives up on rate limits after the bounded retries, with a clear message', async () => {
    const { outcome, errors } = await run(api, `limited-${api}`, { retries: 2 });
    expect(outcome.reason).toBe('error');
    expect(server.requestsFor(`limited-${api}`)).toHaveLength(3);
    expect(errors[0]).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(errors[0]!.message).toMatch(/after 3 attempts.*Rate limit reached/);
  });

  it('says so when the model cannot call tools', async () => {
    const { errors } = await run(api, `no-tools-${api}`);
    expect(errors[0]).toMatchObject({ code: 'NO_TOOL_SUPPORT', status: 400 });
    expect(errors[0]!.message).toMatch(/does not accept tool calls.*does not support tools/);
  });

  it('does not retry a 500 that says tools are refused', async () => {
    const { events, errors } = await run(api, `no-jinja-${api}`);
    expect(events.filter((e) => e.type === 'retry')).toEqual([]);
    expect(server.requestsFor(`no-jinja-${api}`)).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'NO_TOOL_SUPPORT', status: 500 });
    expect(errors[0]!.message).toMatch(/--jinja/);
  });

  it('names a model the server does not have', async () => {
    const { errors } = await run(api, 'no-such-model');
    expect(errors[0]).toMatchObject({ code: 'MODEL_NOT_FOUND', status: 404 });
    expect(errors[0]!.message).toMatch(/no-such-model.*Check the model name/);
  });

  it('says the endpoint is unreachable when nothing listens there', async () => {
    const port = await closedPort();
    const { outcome, errors } = await run(api, `ok-${api}`, { endpoint: `http://127.0.0.1:${port}/v1` });
    expect(outcome.reason).toBe('error');
    expect(errors[0]!.code).toBe('UNREACHABLE');
    expect(errors[0]!.message).toMatch(
      new RegExp(`Cannot reach the model endpoint http://127\\.0\\.0\\.1:${port}/.*ECONNREFUSED.*running`),
    );
  });
});

/** A port that was free a moment ago and has nothing listening now. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
