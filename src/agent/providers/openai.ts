import { toOpenAI } from '../../toolsets/export.js';
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

/** Where and what to ask: any server speaking OpenAI's chat-completions API. */
export interface OpenAIOptions extends HttpOptions {
  /** the API base (`https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`, Ollama's `http://127.0.0.1:11434/v1`) or the full `/chat/completions` URL */
  endpoint: string;
  /** the model to ask */
  model: string;
  /** sent as `Authorization: Bearer`; local servers usually need none */
  apiKey?: string;
  /** the longest answer per turn (`max_tokens`); unset lets the server decide */
  maxTokens?: number;
  /** sampling temperature (the API's default when absent) */
  temperature?: number;
}

/** The chat-completions URL for an endpoint given as a base or in full. */
export function chatCompletionsUrl(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  return trimmed.endsWith('/chat/completions') ? trimmed : `${trimmed}/chat/completions`;
}

/** The conversation as chat-completions messages. */
export function toOpenAIMessages(system: string, messages: readonly AgentMessage[]): unknown[] {
  const out: unknown[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      out.push({
        role: 'assistant',
        content: message.content || null,
        ...(message.tool_calls.length > 0
          ? {
              tool_calls: message.tool_calls.map((c) => ({
                id: c.id,
                type: 'function',
                // Local servers re-parse past arguments to render their chat template; a broken one would fail the whole request.
                function: { name: c.name, arguments: c.parse_error ? '{}' : c.raw || '{}' },
              })),
            }
          : {}),
      });
    } else {
      for (const result of message.results)
        out.push({ role: 'tool', tool_call_id: result.id, content: result.content });
      // Chat tool messages carry text only: images come in a user message right after them, then the notes.
      const images = message.results.flatMap((r) => (r.media ?? []).map((m) => ({ ...m, call: r.id })));
      if (images.length > 0) {
        out.push({
          role: 'user',
          content: [
            {
              type: 'text',
              text: `Images attached by the tool calls above: ${images.map((m) => `${m.name} (${m.call})`).join(', ')}.`,
            },
            ...images.map((m) => ({ type: 'image_url', image_url: { url: `data:${m.mime};base64,${m.data_base64}` } })),
            ...(message.notes ? [{ type: 'text', text: message.notes }] : []),
          ],
        });
      } else if (message.notes) out.push({ role: 'user', content: message.notes });
    }
  }
  return out;
}

interface Delta {
  content?: string | null;
  tool_calls?: Array<{ index?: number; id?: string; function?: { name?: string; arguments?: string } }>;
}
interface Chunk {
  choices?: Array<{ delta?: Delta; message?: Delta; finish_reason?: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: unknown;
}

/** An OpenAI-compatible model, streaming. */
export function openAIProvider(options: OpenAIOptions): ModelProvider {
  const url = chatCompletionsUrl(options.endpoint);
  return {
    api: 'openai',
    model: options.model,
    async turn(request: ModelRequest): Promise<ModelTurn> {
      const body = {
        model: options.model,
        messages: toOpenAIMessages(request.system, request.messages),
        ...(request.tools.length > 0 ? { tools: toOpenAI(asDefinitions(request.tools)) } : {}),
        stream: true,
        stream_options: { include_usage: true },
        ...(options.maxTokens !== undefined ? { max_tokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      };
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
      const response = await postJson(url, headers, body, options, request.signal, request.onRetry);
      const turn = new TurnBuilder();
      // A server that ignores `stream` answers with one JSON completion; take it as one big chunk.
      if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
        turn.add(parseChunk(await response.text()), request.onText, true);
        return turn.finish();
      }
      for await (const event of readSse(response.body!)) {
        if (event.data.trim() === '[DONE]') break;
        turn.add(parseChunk(event.data), request.onText, false);
      }
      return turn.finish();
    },
  };
}

function parseChunk(data: string): Chunk {
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    throw new AgentError(
      'BAD_RESPONSE',
      `The model endpoint sent something that is not chat-completions JSON: ${data.slice(0, 120)}`,
    );
  }
  if (chunk.error) {
    const error = chunk.error as { message?: unknown };
    throw new AgentError(
      'MODEL_ERROR',
      `The model stopped with an error: ${typeof error.message === 'string' ? error.message : JSON.stringify(chunk.error).slice(0, 300)}`,
    );
  }
  return chunk;
}

/** Builds one turn from chunks: text deltas, and tool calls whose pieces arrive by index. */
class TurnBuilder {
  private text = '';
  private readonly calls = new Map<number, { id: string; name: string; raw: string }>();
  private stop: string | null = null;
  private usage = { input_tokens: 0, output_tokens: 0 };

  add(chunk: Chunk, onText: ((delta: string) => void) | undefined, whole: boolean): void {
    if (chunk.usage) {
      this.usage = { input_tokens: chunk.usage.prompt_tokens ?? 0, output_tokens: chunk.usage.completion_tokens ?? 0 };
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = (whole ? choice.message : choice.delta) ?? {};
    if (typeof delta.content === 'string' && delta.content !== '') {
      this.text += delta.content;
      onText?.(delta.content);
    }
    for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
      const index = piece.index ?? position;
      const call = this.calls.get(index) ?? { id: '', name: '', raw: '' };
      if (piece.id) call.id = piece.id;
      if (piece.function?.name && !call.name) call.name = piece.function.name;
      if (piece.function?.arguments) call.raw += piece.function.arguments;
      this.calls.set(index, call);
    }
    if (choice.finish_reason) this.stop = choice.finish_reason;
  }

  finish(): ModelTurn {
    const tool_calls: AgentToolCall[] = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]) => ({
        // Some local servers send no id; the answer still needs one to refer to.
        id: c.id || `call_${index}`,
        name: c.name,
        raw: c.raw,
        ...parseToolArgs(c.raw),
      }));
    return { text: this.text, tool_calls, usage: this.usage, stop_reason: this.stop };
  }
}
