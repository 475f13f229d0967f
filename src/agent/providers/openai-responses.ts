import { toOpenAIResponses } from '../../toolsets/export.js';
import { AgentError } from '../events.js';
import { postJson } from '../http.js';
import { readSse } from '../sse.js';
import {
  parseToolArgs,
  type AgentMessage,
  type AgentToolCall,
  type ModelProvider,
  type ModelRequest,
  type ModelTurn,
} from '../types.js';
import type { OpenAIOptions } from './openai.js';
import { asDefinitions } from './tool-defs.js';

type Item = Record<string, any>;

/** The Responses URL for an endpoint given as a base or in full. */
export function responsesUrl(endpoint: string): string {
  const trimmed = endpoint.trim().replace(/\/+$/, '');
  return trimmed.endsWith('/responses') ? trimmed : `${trimmed}/responses`;
}

/** A native call item as the workspace tool that answers it: its name and arguments. */
const NATIVE_CALLS: Record<string, { name: string; args: (item: Item) => Record<string, unknown> }> = {
  apply_patch_call: { name: 'apply_patch', args: (item) => ({ operation: item.operation }) },
  shell_call: { name: 'shell', args: (item) => ({ action: item.action }) },
};

/** The conversation as Responses API input items: native calls go back as sent, with their outputs. */
export function toResponsesInput(messages: readonly AgentMessage[]): Item[] {
  const out: Item[] = [];
  for (const message of messages) {
    if (message.role === 'user') out.push({ role: 'user', content: message.content });
    else if (message.role === 'assistant') {
      if (message.content) out.push({ role: 'assistant', content: message.content });
      for (const call of message.tool_calls) {
        out.push(
          call.item ?? {
            type: 'function_call',
            call_id: call.id,
            name: call.name,
            arguments: call.parse_error ? '{}' : call.raw || '{}',
          },
        );
      }
    } else {
      for (const result of message.results) out.push(outputItem(result.id, result.name, result.content, result.output));
      if (message.notes) out.push({ role: 'user', content: message.notes });
    }
  }
  return out;
}

function outputItem(callId: string, name: string, content: string, output: Record<string, unknown> | undefined): Item {
  if (output && name === 'apply_patch')
    return { type: 'apply_patch_call_output', call_id: callId, status: output.status, output: output.output };
  if (output && name === 'shell')
    return {
      type: 'shell_call_output',
      call_id: callId,
      output: output.output,
      max_output_length: output.max_output_length ?? null,
    };
  return { type: 'function_call_output', call_id: callId, output: content };
}

/** The request's tools: the native entries for the tools they cover, function tools for the rest. */
function requestTools(request: ModelRequest): unknown[] {
  const native = request.native?.api === 'openai' ? request.native : undefined;
  const covered = new Set(native?.names ?? []);
  const functions = toOpenAIResponses(asDefinitions(request.tools.filter((t) => !covered.has(t.name))));
  return [...(native?.entries ?? []), ...functions];
}

/** A model behind OpenAI's Responses API, streaming; it speaks the built-in apply_patch and shell tools. */
export function openAIResponsesProvider(options: OpenAIOptions): ModelProvider {
  const url = responsesUrl(options.endpoint);
  return {
    api: 'openai',
    native: 'openai',
    model: options.model,
    async turn(request: ModelRequest): Promise<ModelTurn> {
      const tools = requestTools(request);
      const body = {
        model: options.model,
        instructions: request.system,
        input: toResponsesInput(request.messages),
        ...(tools.length > 0 ? { tools } : {}),
        // The conversation is sent whole each turn, so nothing needs keeping on the server.
        store: false,
        stream: true,
        ...(options.maxTokens !== undefined ? { max_output_tokens: options.maxTokens } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      };
      const headers: Record<string, string> = options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {};
      const response = await postJson(url, headers, body, options, request.signal, request.onRetry);
      let text = '';
      let stop: string | null = null;
      const usage = { input_tokens: 0, output_tokens: 0 };
      const calls: AgentToolCall[] = [];
      for await (const sse of readSse(response.body!)) {
        if (sse.data.trim() === '[DONE]') break;
        const event = parse(sse.data);
        if (event.type === 'response.output_text.delta' && typeof event.delta === 'string') {
          text += event.delta;
          request.onText?.(event.delta);
        } else if (event.type === 'response.output_item.done' && event.item) {
          const call = toCall(event.item as Item, calls.length);
          if (call) calls.push(call);
        } else if (event.type === 'response.completed' || event.type === 'response.incomplete') {
          usage.input_tokens = event.response?.usage?.input_tokens ?? 0;
          usage.output_tokens = event.response?.usage?.output_tokens ?? 0;
          stop = event.response?.status ?? event.type.slice('response.'.length);
          break;
        } else if (event.type === 'error' || event.type === 'response.failed') {
          const error = event.error ?? event.response?.error;
          throw new AgentError('MODEL_ERROR', `The model stopped with an error: ${error?.message ?? 'unknown'}`);
        }
      }
      return { text, tool_calls: calls, usage, stop_reason: stop };
    },
  };
}

function parse(data: string): Item {
  try {
    return JSON.parse(data) as Item;
  } catch {
    throw new AgentError(
      'BAD_RESPONSE',
      `The model endpoint sent something that is not Responses API JSON: ${data.slice(0, 120)}`,
    );
  }
}

function toCall(item: Item, index: number): AgentToolCall | null {
  if (item.type === 'function_call') {
    const raw = String(item.arguments ?? '');
    return { id: item.call_id || `call_${index}`, name: String(item.name ?? ''), raw, ...parseToolArgs(raw) };
  }
  const native = NATIVE_CALLS[item.type];
  if (!native) return null;
  const args = native.args(item);
  return { id: item.call_id || `call_${index}`, name: native.name, raw: JSON.stringify(args), args, item };
}
