import type { Envelope } from '../contract/index.js';
import type { Approver } from '../workspace/policy.js';
import { AgentError, type AgentEvent, type AgentListener, type StopReason } from './events.js';
import { infoLines, type AgentInbox } from './inbox.js';
import { lendProviderCaps, splitMedia } from './media.js';
import { systemPrompt } from './system-prompt.js';
import type {
  AgentMessage,
  AgentToolCall,
  AgentToolResult,
  AgentWorkspace,
  ModelProvider,
  NativeTools,
  Usage,
} from './types.js';
import { waitForWake } from './wake.js';
import { joinInboxes } from './joined-inbox.js';
import { toolset as namedToolset, type NativeToolsetName } from '../toolsets/index.js';

/** What runAgent reads from a toolset (a {@link Toolset} fits). */
export interface AgentToolset {
  /** the toolset's guidance for the system prompt */
  instructions?: string;
  /** what the model reads for an envelope */
  present?: (envelope: Envelope) => unknown;
  /** the vendor whose native tool types it answers */
  native?: 'openai' | 'anthropic';
  /** those tools as the API's entries */
  toNative?(): ReadonlyArray<object>;
  /** its tools (only their names are read, to know which the native entries cover) */
  tools?: ReadonlyArray<{
    /** the tool's name */
    name: string;
  }>;
}

/** What to run and within which limits. */
export interface AgentRunOptions {
  /** where the tools run */
  workspace: AgentWorkspace;
  /** the model to ask */
  provider: ModelProvider;
  /** the person's request */
  task: string;
  /** the conversation so far, for a follow-up task in the same session */
  history?: readonly AgentMessage[];
  /** replaces the generated system prompt */
  system?: string;
  /** appended to the generated system prompt (house rules, the project's conventions) */
  instructions?: string;
  /**
   * The toolset the workspace offers: its long guidance joins the system prompt, and `present`
   * shapes results. A vendor's native toolset (`'openai'` with the Responses provider,
   * `'anthropic'` with Messages, by name or as a `toolset()`) goes to the API as its own tool
   * types, and its results as the API's own items.
   */
  toolset?: AgentToolset | NativeToolsetName;
  /** model turns at most (default 25) */
  maxSteps?: number;
  /** input plus output tokens over the whole run; no model call starts once it is spent */
  tokenBudget?: number;
  /** the user's stop: ends the model stream at once; tool calls already running finish first */
  signal?: AbortSignal;
  /** told of every step as it happens */
  onEvent?: AgentListener;
  /** the text the model reads for an envelope (a toolset's `present`; default the envelope itself) */
  present?: (envelope: Envelope) => unknown;
  /**
   * The approver for this run's confirmations (deletes, cowork's changes outside its artifact
   * folder, `permission: "ask"` tools). It is installed as the workspace's `confirm` policy for
   * the run, so the workspace must expose its policy (a Workspace or NodeWorkspace does; for a
   * worker, pass `policy.confirm` to connectWorkspace instead).
   */
  onApproval?: Approver;
  /** notes from background work (seed 003), appended to the next request as `[info: ...]` lines */
  inbox?: AgentInbox;
  /** who the run's changes are attributed to in the change log and blame (default `agent:<model>`) */
  actor?: string;
  /** after an answer, stay alive this long for running background tasks; a wake note or an exit starts the next turn */
  maxBackgroundWaitMinutes?: number;
}

/** How a run ended, with the conversation to continue from. */
export interface AgentOutcome {
  /** why the run ended */
  reason: StopReason;
  /** the model's last text */
  text: string;
  /** how many model turns it took */
  steps: number;
  /** tokens used in all */
  usage: Usage;
  /** the whole conversation, to continue or inspect */
  messages: AgentMessage[];
  /** the model error that ended it, when one did */
  error?: AgentError;
}

/**
 * Run the agent loop: model, tool calls, results, model again, until the model answers without
 * calling a tool (and no background task wakes it), the step limit, the token budget, the
 * signal, or a model error. Never throws for a model or tool failure: the outcome and the
 * events say what happened.
 */
export async function runAgent(given: AgentRunOptions): Promise<AgentOutcome> {
  const options =
    typeof given.toolset === 'string' ? { ...given, toolset: namedToolset(given.toolset) as AgentToolset } : given;
  const { workspace } = options;
  const emit = (event: AgentEvent) => options.onEvent?.(event);
  const policy = workspace.policy;
  const previous = policy?.confirm;
  if (options.onApproval && policy) {
    const approve = options.onApproval;
    policy.confirm = async (paths, action, request) => {
      const approved = (await approve(paths, action, request)) === true;
      emit({ type: 'approval', request, approved });
      return approved;
    };
  }
  const returnCaps = lendProviderCaps(workspace, options.provider.caps);
  // A person's verdicts on hunks wait for the gaps between this run's tool calls.
  const review = workspace.review;
  const release = review?.hold();
  const inbox = joinInboxes(options.inbox, review?.inbox);
  try {
    return await loop({ ...options, ...(inbox ? { inbox } : {}) }, emit);
  } finally {
    await release?.();
    returnCaps();
    if (options.onApproval && policy) policy.confirm = previous;
  }
}

type Resolved = AgentRunOptions & { toolset?: AgentToolset };

async function loop(options: Resolved, emit: (event: AgentEvent) => void): Promise<AgentOutcome> {
  const { workspace, provider, signal, inbox } = options;
  const maxSteps = options.maxSteps ?? 25;
  const tools = await workspace.listTools();
  const native = nativeTools(options.toolset);
  const guidance = [options.toolset?.instructions, options.instructions].filter((t) => t?.trim()).join('\n\n');
  const system = options.system ?? systemPrompt(tools, guidance || undefined);
  const messages: AgentMessage[] = [...(options.history ?? []), { role: 'user', content: options.task }];
  const usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let text = '';
  let steps = 0;
  const finish = (reason: StopReason, error?: AgentError): AgentOutcome => {
    emit({ type: 'done', reason, steps, text, usage: { ...usage } });
    return { reason, text, steps, usage: { ...usage }, messages, ...(error ? { error } : {}) };
  };
  emit({ type: 'start', api: provider.api, model: provider.model, tools: tools.map((t) => t.name) });
  if (native && provider.native !== native.api) {
    const failure = new AgentError(
      'NO_TOOL_SUPPORT',
      `The ${native.api} toolset's native tools need ${native.api === 'openai' ? "OpenAI's Responses API provider" : "Anthropic's Messages API provider"}; this provider speaks ${provider.native ? `${provider.native}'s native tools` : 'function tools only'}.`,
    );
    emit({ type: 'error', step: 0, code: failure.code, message: failure.message });
    return finish('error', failure);
  }

  for (;;) {
    if (signal?.aborted) return finish('stopped');
    if (steps >= maxSteps) return finish('step_limit');
    if (options.tokenBudget !== undefined && usage.input_tokens + usage.output_tokens >= options.tokenBudget)
      return finish('token_budget');
    await workspace.review?.drain();
    deliverNotes(messages, inbox, emit, steps);
    const step = ++steps;
    emit({ type: 'step', step });
    let turn;
    try {
      turn = await provider.turn({
        system,
        messages,
        tools,
        ...(native ? { native } : {}),
        ...(signal ? { signal } : {}),
        onText: (delta) => emit({ type: 'text', step, delta }),
        onRetry: (info) => emit({ type: 'retry', step, ...info }),
      });
    } catch (error) {
      if (signal?.aborted) return finish('stopped');
      const failure =
        error instanceof AgentError
          ? error
          : new AgentError(
              'BAD_RESPONSE',
              `The model's answer could not be read: ${(error as Error)?.message ?? String(error)}`,
            );
      emit({
        type: 'error',
        step,
        code: failure.code,
        message: failure.message,
        ...(failure.status !== undefined ? { status: failure.status } : {}),
      });
      return finish('error', failure);
    }
    usage.input_tokens += turn.usage.input_tokens;
    usage.output_tokens += turn.usage.output_tokens;
    emit({ type: 'usage', step, turn: turn.usage, total: { ...usage } });
    text = turn.text;
    messages.push({ role: 'assistant', content: turn.text, tool_calls: turn.tool_calls });
    emit({ type: 'assistant', step, text: turn.text, tool_calls: turn.tool_calls });
    if (turn.tool_calls.length === 0) {
      if (!inbox || !options.maxBackgroundWaitMinutes) return finish('answered');
      const woke = await waitForWake(inbox, options.maxBackgroundWaitMinutes * 60_000, signal, (tasks) =>
        emit({ type: 'waiting', step, tasks }),
      );
      if (woke === 'stopped') return finish('stopped');
      if (woke === 'idle') return finish('answered');
      // The wake itself is the next request's message: the notes, as a user turn after the answer.
      const notes = inbox.take();
      emit({ type: 'notes', step, notes: notes.map((n) => n.text) });
      messages.push({ role: 'user', content: infoLines(notes) });
      continue;
    }
    // All at once: the workspace serialises calls that touch the same path, in the order issued.
    const results = await Promise.all(
      turn.tool_calls.map((call) => runCall(options, call, step, emit, native?.names.includes(call.name) === true)),
    );
    messages.push({ role: 'tool', results });
  }
}

/**
 * Notes that arrived since the last request go at its end: with the results just pushed, or
 * appended to the task itself. Only the newest, not yet sent message changes, so every earlier
 * message (and the system prompt) stays byte-identical for the provider's prompt cache.
 */
function deliverNotes(
  messages: AgentMessage[],
  inbox: AgentInbox | undefined,
  emit: (event: AgentEvent) => void,
  step: number,
): void {
  const notes = inbox?.take() ?? [];
  if (notes.length === 0) return;
  emit({ type: 'notes', step, notes: notes.map((n) => n.text) });
  const lines = infoLines(notes);
  const last = messages.at(-1)!;
  if (last.role === 'tool')
    messages[messages.length - 1] = { ...last, notes: last.notes ? `${last.notes}\n${lines}` : lines };
  else if (last.role === 'user')
    messages[messages.length - 1] = { role: 'user', content: `${last.content}\n\n${lines}` };
  else messages.push({ role: 'user', content: lines });
}

/** A native toolset's API entries and the tool names they cover. */
function nativeTools(set: AgentToolset | undefined): NativeTools | undefined {
  if (!set?.native || !set.toNative) return undefined;
  const entries = set.toNative() as ReadonlyArray<Record<string, unknown>>;
  return { api: set.native, entries, names: (set.tools ?? []).map((t) => t.name) };
}

async function runCall(
  options: Resolved,
  call: AgentToolCall,
  step: number,
  emit: (event: AgentEvent) => void,
  native: boolean,
): Promise<AgentToolResult> {
  emit({ type: 'tool_call', step, call });
  let envelope: Envelope;
  if (call.parse_error) {
    envelope = {
      ok: false,
      tool: call.name,
      error: {
        code: 'INVALID_ARGUMENTS',
        message: `${call.name} was called with arguments that could not be used: ${call.parse_error}.`,
        hint: 'Send the arguments as one complete JSON object that matches the tool schema, then call the tool again.',
        problems: [{ path: '', message: 'must be a JSON object' }],
      },
    };
  } else {
    try {
      envelope = await options.workspace.call(call.name, call.args, {
        actor: options.actor ?? `agent:${options.provider.model}`,
        call_id: call.id,
      });
    } catch (error) {
      // Only a workspace that is gone (a closed worker) rejects; the model reads it like any failure.
      envelope = {
        ok: false,
        tool: call.name,
        error: { code: 'IO_ERROR', message: (error as Error)?.message ?? 'the workspace is not available' },
      };
    }
  }
  emit({ type: 'tool_result', step, call, envelope });
  const { envelope: visible, media } = splitMedia(envelope, options.provider.caps?.vision === true);
  const present = options.present ?? options.toolset?.present;
  const shown = present ? present(visible) : visible;
  return {
    id: call.id,
    name: call.name,
    envelope,
    content: JSON.stringify(shown),
    ...(media.length ? { media } : {}),
    // A native tool's presented answer goes back in the API's own item type.
    ...(native && shown && typeof shown === 'object' ? { output: shown as Record<string, unknown> } : {}),
  };
}
