import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ResponseApplyPatchToolCall,
  ResponseFunctionShellToolCall,
  ResponseFunctionToolCall,
  ResponseOutputMessage,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';

/** One scripted model turn: text, then the items the model emits (typed by the SDK, so the wire shape is the API's). */
export interface ResponsesTurn {
  text?: string;
  items?: Array<ResponseApplyPatchToolCall | ResponseFunctionShellToolCall | ResponseFunctionToolCall>;
}

/**
 * A scripted Responses API server on 127.0.0.1: the nth request gets the nth turn, streamed as the
 * API streams it, or as one JSON response when the request did not ask for a stream (the AI SDK's
 * generateText, the Agents SDK's run()).
 */
export interface ResponsesServer {
  url: string;
  bodies: Array<Record<string, any>>;
  stop(): Promise<void>;
}

/** A shell_call item as the Responses API emits it. */
export function shellCall(
  id: string,
  commands: string[],
  timeout_ms: number | null = null,
): ResponseFunctionShellToolCall {
  return {
    type: 'shell_call',
    id: `sh_${id}`,
    call_id: id,
    status: 'completed',
    environment: { type: 'local' },
    action: { commands, timeout_ms, max_output_length: null },
  };
}

/** An apply_patch_call item as the Responses API emits it. */
export function patchCall(id: string, operation: ResponseApplyPatchToolCall['operation']): ResponseApplyPatchToolCall {
  return { type: 'apply_patch_call', id: `ap_${id}`, call_id: id, status: 'completed', operation };
}

/** A function_call item as the Responses API emits it. */
export function functionCall(id: string, name: string, args: unknown): ResponseFunctionToolCall {
  return {
    type: 'function_call',
    id: `fc_${id}`,
    call_id: id,
    name,
    arguments: JSON.stringify(args),
    status: 'completed',
  };
}

const sse = (event: ResponseStreamEvent) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;

const response = (at: number, status: 'in_progress' | 'completed', output: unknown[]) =>
  ({
    id: `resp_${at}`,
    object: 'response',
    created_at: 0,
    model: 'scripted',
    status,
    output,
    usage:
      status === 'completed'
        ? {
            input_tokens: 10,
            output_tokens: 5,
            total_tokens: 15,
            input_tokens_details: { cached_tokens: 0 },
            output_tokens_details: { reasoning_tokens: 0 },
          }
        : null,
  }) as never;

const messageOf = (text: string, at: number): ResponseOutputMessage => ({
  type: 'message',
  id: `msg_${at}`,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

function events(turn: ResponsesTurn, at: number): string[] {
  const out: string[] = [];
  let seq = 0;
  out.push(sse({ type: 'response.created', sequence_number: seq++, response: response(at, 'in_progress', []) }));
  const output: unknown[] = [];
  let index = 0;
  if (turn.text) {
    const message = messageOf(turn.text, at);
    for (let i = 0; i < turn.text.length; i += 5)
      out.push(
        sse({
          type: 'response.output_text.delta',
          sequence_number: seq++,
          item_id: message.id,
          output_index: index,
          content_index: 0,
          delta: turn.text.slice(i, i + 5),
          logprobs: [],
        }),
      );
    out.push(sse({ type: 'response.output_item.done', sequence_number: seq++, output_index: index++, item: message }));
    output.push(message);
  }
  for (const item of turn.items ?? []) {
    out.push(sse({ type: 'response.output_item.added', sequence_number: seq++, output_index: index, item }));
    out.push(sse({ type: 'response.output_item.done', sequence_number: seq++, output_index: index++, item }));
    output.push(item);
  }
  out.push(sse({ type: 'response.completed', sequence_number: seq++, response: response(at, 'completed', output) }));
  return out;
}

/** The same turn as one (unstreamed) response object. */
const whole = (turn: ResponsesTurn, at: number) =>
  response(at, 'completed', [...(turn.text ? [messageOf(turn.text, at)] : []), ...(turn.items ?? [])]);

export async function startResponsesServer(script: ResponsesTurn[]): Promise<ResponsesServer> {
  const bodies: Array<Record<string, any>> = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      if (req.method !== 'POST' || !req.url?.endsWith('/responses')) return void res.writeHead(404).end();
      const body = JSON.parse(raw);
      bodies.push(body);
      const turn = script[bodies.length - 1];
      if (!turn) return void res.writeHead(500).end(JSON.stringify({ error: { message: 'script ended' } }));
      if (body.stream !== true)
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify(whole(turn, bodies.length)));
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of events(turn, bodies.length)) res.write(event);
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    bodies,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
