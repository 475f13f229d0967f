import type { RecordedRequest } from './model-server.js';

/** A tool result as the loop sent it back, whichever API carried it. */
export interface SentResult {
  id: string;
  envelope: Record<string, any>;
  is_error?: boolean;
}

/** The tool results at the end of a recorded request (the answers to the previous turn's calls). */
export function sentResults(request: RecordedRequest): SentResult[] {
  const messages = request.body.messages as Array<Record<string, any>>;
  if (request.api === 'openai') {
    const out: SentResult[] = [];
    for (let i = messages.length - 1; i >= 0 && messages[i]!.role === 'tool'; i--) {
      out.unshift({ id: messages[i]!.tool_call_id, envelope: JSON.parse(messages[i]!.content) });
    }
    return out;
  }
  const last = messages.at(-1)!;
  if (last.role !== 'user' || !Array.isArray(last.content)) return [];
  return last.content
    .filter((b: any) => b.type === 'tool_result')
    .map((b: any) => ({
      id: b.tool_use_id,
      envelope: JSON.parse(b.content),
      ...(b.is_error ? { is_error: true } : {}),
    }));
}

/** The ids of the tool calls in the assistant message before the results, in order. */
export function previousCallIds(request: RecordedRequest): string[] {
  const messages = request.body.messages as Array<Record<string, any>>;
  const assistant = [...messages].reverse().find((m) => m.role === 'assistant');
  if (!assistant) return [];
  if (request.api === 'openai') return (assistant.tool_calls ?? []).map((c: any) => c.id);
  return (assistant.content as any[]).filter((b) => b.type === 'tool_use').map((b) => b.id);
}

/** The system prompt a request carried. */
export function systemOf(request: RecordedRequest): string {
  return request.api === 'openai' ? request.body.messages[0].content : request.body.system;
}
