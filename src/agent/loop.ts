import type { Envelope } from '../contract/index.js';
import { AgentError, type AgentEvent, type AgentListener, type StopReason } from './events.js';
import { systemPrompt } from './system-prompt.js';
import type { AgentMessage, AgentToolCall, AgentToolResult, AgentWorkspace, ModelProvider, Usage } from './types.js';

/** What to run and within which limits. */
export interface AgentRunOptions {
  workspace: AgentWorkspace;
  provider: ModelProvider;
  task: string;
  /** the conversation so far, for a follow-up task in the same session */
  history?: readonly AgentMessage[];
  /** replaces the generated system prompt */
  system?: string;
  /** appended to the generated system prompt (house rules, the project's conventions) */
  instructions?: string;
  /** model turns at most (default 25) */
  maxSteps?: number;
  /** input plus output tokens over the whole run; no model call starts once it is spent */
  tokenBudget?: number;
  /** the user's stop: ends the model stream at once; tool calls already running finish first */
  signal?: AbortSignal;
  onEvent?: AgentListener;
  /** the text the model reads for an envelope (a toolset's `present`; default the envelope itself) */
  present?: (envelope: Envelope) => unknown;
}

/** How a run ended, with the conversation to continue from. */
export interface AgentOutcome {
  reason: StopReason;
  /** the model's last text */
  text: string;
  steps: number;
  usage: Usage;
  messages: AgentMessage[];
  error?: AgentError;
}

/**
 * Run the agent loop: model, tool calls, results, model again, until the model answers without
 * calling a tool, the step limit, the token budget, the signal, or a model error. Never throws
 * for a model or tool failure: the outcome and the events say what happened.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentOutcome> {
  const { workspace, provider, signal } = options;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const maxSteps = options.maxSteps ?? 25;
  const tools = await workspace.listTools();
  const system = options.system ?? systemPrompt(tools, options.instructions);
  const messages: AgentMessage[] = [...(options.history ?? []), { role: 'user', content: options.task }];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let text = '';
  let steps = 0;
  const finish = (reason: StopReason, error?: AgentError): AgentOutcome => {
    emit({ type: 'done', reason, steps, text, usage: { ...usage } });
    return { reason, text, steps, usage: { ...usage }, messages, ...(error ? { error } : {}) };
  };
  emit({ type: 'start', api: provider.api, model: provider.model, tools: tools.map((t) => t.name) });

  for (;;) {
    if (signal?.aborted) return finish('stopped');
    if (steps >= maxSteps) return finish('step_limit');
    if (options.tokenBudget !== undefined && usage.input_tokens + usage.output_tokens >= options.tokenBudget) return finish('token_budget');
    const step = ++steps;
    emit({ type: 'step', step });
    let turn;
    try {
      turn = await provider.turn({
        system, messages, tools, ...(signal ? { signal } : {}),
        onText: (delta) => emit({ type: 'text', step, delta }),
        onRetry: (info) => emit({ type: 'retry', step, ...info }),
      });
    } catch (error) {
      if (signal?.aborted) return finish('stopped');
      const failure = error instanceof AgentError ? error
        : new AgentError('BAD_RESPONSE', `The model's answer could not be read: ${(error as Error)?.message ?? String(error)}`);
      emit({ type: 'error', step, code: failure.code, message: failure.message, ...(failure.status !== undefined ? { status: failure.status } : {}) });
      return finish('error', failure);
    }
    usage.input_tokens += turn.usage.input_tokens;
    usage.output_tokens += turn.usage.output_tokens;
    emit({ type: 'usage', step, turn: turn.usage, total: { ...usage } });
    text = turn.text;
    messages.push({ role: 'assistant', content: turn.text, tool_calls: turn.tool_calls });
    emit({ type: 'assistant', step, text: turn.text, tool_calls: turn.tool_calls });
    if (turn.tool_calls.length === 0) return finish('answered');
    // All at once: the workspace serialises calls that touch the same path, in the order issued.
    const results = await Promise.all(turn.tool_calls.map((call) => runCall(options, call, step, emit)));
    messages.push({ role: 'tool', results });
  }
}

async function runCall(options: AgentRunOptions, call: AgentToolCall, step: number, emit: (event: AgentEvent) => void): Promise<AgentToolResult> {
  emit({ type: 'tool_call', step, call });
  let envelope: Envelope;
  if (call.parse_error) {
    envelope = {
      ok: false, tool: call.name,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: `${call.name} was called with arguments that could not be used: ${call.parse_error}.`,
        hint: 'Send the arguments as one complete JSON object that matches the tool schema, then call the tool again.',
        problems: [{ path: '', message: 'must be a JSON object' }],
      },
    };
  } else {
    try {
      envelope = await options.workspace.call(call.name, call.args);
    } catch (error) {
      // Only a workspace that is gone (a closed worker) rejects; the model reads it like any failure.
      envelope = { ok: false, tool: call.name, error: { code: 'IO_ERROR', message: (error as Error)?.message ?? 'the workspace is not available' } };
    }
  }
  emit({ type: 'tool_result', step, call, envelope });
  const shown = options.present ? options.present(envelope) : envelope;
  return { id: call.id, name: call.name, envelope, content: JSON.stringify(shown) };
}
