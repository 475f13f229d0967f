import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted tool call: `args` is sent as JSON, `raw` as the exact (possibly broken) argument text. */
export interface ScriptCall {
  name: string;
  args?: unknown;
  raw?: string;
}

/** One scripted answer: a streamed turn, an HTTP failure, or a stream that never ends (for stop tests). */
export type ScriptTurn =
  | {
      text?: string;
      calls?: ScriptCall[];
      usage?: { input: number; output: number };
      plain?: boolean;
      delayMs?: number;
      waitFor?: () => Promise<unknown>;
    }
  | { status: number; message?: string; retryAfter?: string }
  | { hang: true; text: string };

/** A request as the server got it, for tests to check what the loop sent back. */
export interface RecordedRequest {
  api: 'openai' | 'anthropic';
  model: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, any>;
}

/** The scripted model server: both APIs, streaming, on 127.0.0.1. */
export interface ModelServer {
  /** e.g. `http://127.0.0.1:PORT`; OpenAI clients use `${url}/v1` */
  url: string;
  requests: RecordedRequest[];
  /** requests for one model (one conversation) */
  requestsFor(model: string): RecordedRequest[];
  /** streams the server cut because the client went away */
  disconnects: number;
  stop(): Promise<void>;
}

const ALLOWED_HEADERS =
  'authorization, x-api-key, anthropic-version, content-type, anthropic-dangerous-direct-browser-access';

/**
 * Start a server that plays fixed conversations, one per model name: the nth request for a
 * model gets that model's nth turn. With `apiKey`, requests must carry it (Bearer or x-api-key).
 * CORS is open, so the playground page in Chromium can call it.
 */
export async function startModelServer(
  scripts: Record<string, ScriptTurn[]>,
  options: { apiKey?: string } = {},
): Promise<ModelServer> {
  const cursors = new Map<string, number>();
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const state = { disconnects: 0 };
  const server: Server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', ALLOWED_HEADERS);
    res.setHeader('access-control-allow-methods', 'POST, OPTIONS');
    res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    void handle(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `model server: ${error.message}` } }));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const api = req.url?.endsWith('/chat/completions') ? 'openai' : req.url?.endsWith('/messages') ? 'anthropic' : null;
    if (req.method !== 'POST' || api === null)
      return void res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw) as Record<string, any>;
    const model = String(body.model);
    requests.push({ api, model, headers: req.headers, body });
    if (options.apiKey !== undefined) {
      const given = api === 'openai' ? req.headers.authorization : req.headers['x-api-key'];
      const expected = api === 'openai' ? `Bearer ${options.apiKey}` : options.apiKey;
      if (given !== expected) return fail(res, api, { status: 401, message: 'Incorrect API key provided' });
    }
    const script = scripts[model];
    if (!script) return fail(res, api, { status: 404, message: `The model '${model}' does not exist` });
    const at = cursors.get(model) ?? 0;
    cursors.set(model, at + 1);
    const turn = script[at];
    if (!turn) return fail(res, api, { status: 500, message: `the script for ${model} has no turn ${at + 1}` });
    if ('status' in turn) return fail(res, api, turn);
    // A slow model: something can happen in the page while the request is out.
    if ('delayMs' in turn && turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
    // A model that answers only once something happened meanwhile (a background task's exit).
    if ('waitFor' in turn && turn.waitFor) await turn.waitFor();
    // Some servers ignore `stream` and answer with one JSON completion.
    if ('plain' in turn && turn.plain && api === 'openai')
      return void res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify(plainCompletion(model, turn, at)));
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.on('close', () => {
      if (!res.writableFinished) state.disconnects++;
    });
    if ('hang' in turn) return hang(res, api, model, turn.text);
    const events = api === 'openai' ? openAIEvents(model, turn, at) : anthropicEvents(model, turn, at);
    for (const event of events) {
      // Each event goes out in two writes, so the client meets events split across chunks.
      const half = Math.floor(event.length / 2);
      res.write(event.slice(0, half));
      res.write(event.slice(half));
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    requestsFor: (model) => requests.filter((r) => r.model === model),
    get disconnects() {
      return state.disconnects;
    },
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function fail(
  res: ServerResponse,
  api: 'openai' | 'anthropic',
  turn: { status: number; message?: string; retryAfter?: string },
): void {
  const message = turn.message ?? `status ${turn.status}`;
  const body =
    api === 'openai'
      ? { error: { message, type: 'invalid_request_error', code: null } }
      : { type: 'error', error: { type: turn.status === 429 ? 'rate_limit_error' : 'invalid_request_error', message } };
  res.writeHead(turn.status, {
    'content-type': 'application/json',
    ...(turn.retryAfter !== undefined ? { 'retry-after': turn.retryAfter } : {}),
  });
  res.end(JSON.stringify(body));
}

/** Stream text a piece at a time until the client goes away. */
function hang(res: ServerResponse, api: 'openai' | 'anthropic', model: string, text: string): void {
  if (api === 'anthropic') {
    res.write(
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_hang',
            type: 'message',
            role: 'assistant',
            content: [],
            model,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
        'message_start',
      ),
    );
    res.write(
      sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    );
  }
  const timer = setInterval(() => {
    res.write(
      api === 'openai'
        ? sse({
            id: 'chatcmpl-hang',
            object: 'chat.completion.chunk',
            model,
            choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
          })
        : sse({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, 'content_block_delta'),
    );
  }, 25);
  res.on('close', () => clearInterval(timer));
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** Split text into small pieces, as a model streams it. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type Turn = { text?: string; calls?: ScriptCall[]; usage?: { input: number; output: number } };

function plainCompletion(model: string, turn: Turn, at: number): unknown {
  const usage = usageOf(turn, at);
  const calls = (turn.calls ?? []).map((call, index) => ({
    id: `call_${at}_${index}`,
    type: 'function',
    function: { name: call.name, arguments: argText(call) },
  }));
  return {
    id: `chatcmpl-${at}`,
    object: 'chat.completion',
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: turn.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}
const argText = (call: ScriptCall) => call.raw ?? JSON.stringify(call.args ?? {});
const usageOf = (turn: Turn, at: number) => turn.usage ?? { input: 100 * (at + 1), output: 20 };

function openAIEvents(model: string, turn: Turn, at: number): string[] {
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({
      id: `chatcmpl-${at}`,
      object: 'chat.completion.chunk',
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(turn.text ?? '', 7)) events.push(chunk({ content: piece }));
  (turn.calls ?? []).forEach((call, index) => {
    events.push(
      chunk({
        tool_calls: [
          { index, id: `call_${at}_${index}`, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    for (const piece of pieces(argText(call), 5))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, turn.calls?.length ? 'tool_calls' : 'stop'));
  const usage = usageOf(turn, at);
  events.push(
    sse({
      id: `chatcmpl-${at}`,
      object: 'chat.completion.chunk',
      model,
      choices: [],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    }),
  );
  events.push('data: [DONE]\n\n');
  return events;
}

function anthropicEvents(model: string, turn: Turn, at: number): string[] {
  const usage = usageOf(turn, at);
  const events = [
    sse(
      {
        type: 'message_start',
        message: {
          id: `msg_${at}`,
          type: 'message',
          role: 'assistant',
          content: [],
          model,
          stop_reason: null,
          usage: { input_tokens: usage.input, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sse({ type: 'ping' }, 'ping'),
  ];
  let index = 0;
  if (turn.text) {
    events.push(
      sse({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    );
    for (const piece of pieces(turn.text, 7))
      events.push(
        sse({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta'),
      );
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  }
  (turn.calls ?? []).forEach((call, n) => {
    events.push(
      sse(
        {
          type: 'content_block_start',
          index,
          content_block: { type: 'tool_use', id: `toolu_${at}_${n}`, name: call.name, input: {} },
        },
        'content_block_start',
      ),
    );
    for (const piece of pieces(argText(call), 5))
      events.push(
        sse(
          { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
          'content_block_delta',
        ),
      );
    events.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
    index++;
  });
  events.push(
    sse(
      {
        type: 'message_delta',
        delta: { stop_reason: turn.calls?.length ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      },
      'message_delta',
    ),
  );
  events.push(sse({ type: 'message_stop' }, 'message_stop'));
  return events;
}
