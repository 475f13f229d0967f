import { toAnthropic } from '../../toolsets/export.js';
import { AgentError } from '../events.js';
import { postJson, type HttpOptions } from '../http.js';
import { readSse } from '../sse.js';
import {
  parseToolArgs,
  type AgentMessage,
  type AgentToolCall,
  type ModelProvider,
  type ModelRequest,
  type ModelTurn,
} from '../types.js';
import { asDefinitions } from './tool-defs.js';

/** Where and what to ask: Anthropic's Messages API (or a server that speaks it). */
export interface AnthropicOptions extends HttpOptions {
  /** the API base (`https://api.anthropic.com`, with or without `/v1`) or the full `/v1/messages` URL */
  endpoint: string;
  /** the model to ask */
  model: string;
  /** sent as `x-api-key` */
  apiKey?: string;
  /** the longest answer per turn (the API requires one; default 4,096) */
  maxTokens?: number;
  /** sampling temperature (the API's default when absent) */
  temperature?: number;
  /** the `anthropic-version` header (default 2023-06-01) */
  version?: string;
}

/** The messages URL for an endpoint given as a base or in full. */
export function messagesUrl(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  if (trimmed.endsWith('/messages')) return trimmed;
  return trimmed.endsWith('/v1') ? `${trimmed}/messages` : `${trimmed}/v1/messages`;
}

/** The conversation as Messages API messages: tool results go back in a user turn, one block per call. */
export function toAnthropicMessages(messages: readonly AgentMessage[]): unknown[] {
  return messages.map((message) => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'assistant') {
      const blocks: unknown[] = message.content ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.tool_calls) {
        const input = call.parse_error ? {} : call.args;
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input });
      }
      // The API refuses an assistant turn with no content at all.
      return { role: 'assistant', content: blocks.length > 0 ? blocks : [{ type: 'text', text: '(no answer)' }] };
    }
    const results: unknown[] = message.results.map((r) => ({
      type: 'tool_result',
      tool_use_id: r.id,
      // A tool_result may hold image blocks beside its text: the model sees what the tool attached.
      content: r.media?.length
        ? [
            { type: 'text', text: r.content },
            ...r.media.map((m) => ({
              type: 'image',
              source: { type: 'base64', media_type: m.mime, data: m.data_base64 },
            })),
          ]
        : r.content,
      ...(r.envelope.ok ? {} : { is_error: true }),
      // A native tool (the text editor, bash) answers with its own text and error flag.
      ...(r.output ? nativeResult(r.output) : {}),
    }));
    // Notes follow the results in the same user turn (text after every tool_result block).
    return { role: 'user', content: message.notes ? [...results, { type: 'text', text: message.notes }] : results };
  });
}

function nativeResult(output: Record<string, unknown>): { content: string; is_error?: true } {
  return { content: String(output.content ?? ''), ...(output.is_error === true ? { is_error: true as const } : {}) };
}

/** The request's tools: the native entries for the tools they cover, the rest as custom tools. */
function requestTools(request: ModelRequest): unknown[] {
  const native = request.native?.api === 'anthropic' ? request.native : undefined;
  const covered = new Set(native?.names ?? []);
  return [...(native?.entries ?? []), ...toAnthropic(asDefinitions(request.tools.filter((t) => !covered.has(t.name))))];
}

interface StreamEvent {
  type?: string;
  index?: number;
  message?: { usage?: { input_tokens?: number; output_tokens?: number } };
  content_block?: { type?: string; id?: string; name?: string; text?: string; input?: unknown };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string | null };
  usage?: { input_tokens?: number; output_tokens?: number };
  error?: { type?: string; message?: string };
}

// In a page, Anthropic answers CORS preflights only for requests that carry this header.
const inBrowser = () =>
  typeof (globalThis as { document?: unknown }).document !== 'undefined' ||
  typeof (globalThis as { importScripts?: unknown }).importScripts === 'function';

/** An Anthropic model, streaming. */
export function anthropicProvider(options: AnthropicOptions): ModelProvider {
  const url = messagesUrl(options.endpoint);
  return {
    api: 'anthropic',
    native: 'anthropic',
    model: options.model,
    async turn(request: ModelRequest): Promise<ModelTurn> {
      const tools = requestTools(request);
      const body = {
        model: options.model,
        system: request.system,
        messages: toAnthropicMessages(request.messages),
        ...(tools.length > 0 ? { tools } : {}),
        max_tokens: options.maxTokens ?? 4096,
        stream: true,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      };
      const headers: Record<string, string> = {
        'anthropic-version': options.version ?? '2023-06-01',
        ...(options.apiKey ? { 'x-api-key': options.apiKey } : {}),
        ...(inBrowser() ? { 'anthropic-dangerous-direct-browser-access': 'true' } : {}),
      };
      const response = await postJson(url, headers, body, options, request.signal, request.onRetry);
      let text = '';
      let stop: string | null = null;
      const usage = { input_tokens: 0, output_tokens: 0 };
      const blocks = new Map<number, { id: string; name: string; raw: string }>();
      for await (const sse of readSse(response.body!)) {
        let event: StreamEvent;
        try {
          event = JSON.parse(sse.data) as StreamEvent;
        } catch {
          throw new AgentError(
            'BAD_RESPONSE',
            `The model endpoint sent something that is not Messages API JSON: ${sse.data.slice(0, 120)}`,
          );
        }
        if (event.type === 'error') {
          const code =
            event.error?.type === 'overloaded_error' || event.error?.type === 'rate_limit_error'
              ? 'RATE_LIMITED'
              : 'MODEL_ERROR';
          throw new AgentError(
            code,
            `The model stopped with an error: ${event.error?.message ?? event.error?.type ?? 'unknown'}`,
          );
        }
        if (event.type === 'message_start') {
          usage.input_tokens = event.message?.usage?.input_tokens ?? 0;
          usage.output_tokens = event.message?.usage?.output_tokens ?? 0;
        } else if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
          blocks.set(event.index ?? blocks.size, {
            id: event.content_block.id ?? '',
            name: event.content_block.name ?? '',
            raw: '',
          });
        } else if (
          event.type === 'content_block_start' &&
          event.content_block?.type === 'text' &&
          event.content_block.text
        ) {
          text += event.content_block.text;
          request.onText?.(event.content_block.text);
        } else if (event.type === 'content_block_delta' && event.delta?.type === 'text_delta' && event.delta.text) {
          text += event.delta.text;
          request.onText?.(event.delta.text);
        } else if (event.type === 'content_block_delta' && event.delta?.type === 'input_json_delta') {
          const block = blocks.get(event.index ?? -1);
          if (block) block.raw += event.delta.partial_json ?? '';
        } else if (event.type === 'message_delta') {
          stop = event.delta?.stop_reason ?? stop;
          if (event.usage?.output_tokens !== undefined) usage.output_tokens = event.usage.output_tokens;
          if (event.usage?.input_tokens !== undefined) usage.input_tokens = event.usage.input_tokens;
        } else if (event.type === 'message_stop') break;
      }
      const tool_calls: AgentToolCall[] = [...blocks.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, b]) => ({ id: b.id || `toolu_${index}`, name: b.name, raw: b.raw, ...parseToolArgs(b.raw) }));
      return { text, tool_calls, usage, stop_reason: stop };
    },
  };
}
