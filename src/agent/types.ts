import type { ToolInfo } from '../tools/schema/define.js';
import type { Envelope } from '../contract/index.js';
import type { Approver } from '../workspace/policy.js';
import type { AgentInbox } from './inbox.js';

/**
 * What the loop needs from a workspace: a `Workspace`, a `NodeWorkspace` and the page's worker
 * client (`connectWorkspace`) all fit.
 */
export interface AgentWorkspace {
  /** Run one tool; resolves to its envelope. `actor` and `call_id` name who asked, for the change log and blame. */
  call(tool: string, args?: unknown, options?: { actor?: string; call_id?: string }): Promise<Envelope>;
  /**
   * The workspace's review desk, when it has one: runAgent holds it for the run, so a person's
   * verdicts apply between the run's tool calls, and reads its notes (rejections) with the inbox's.
   */
  readonly review?: AgentReviewDesk;
  /** The tools offered to the model. */
  listTools(): ToolInfo[] | Promise<ToolInfo[]>;
  /** a workspace's policy, where runAgent's onApproval installs itself for the run */
  readonly policy?: {
    /** the approver asked for confirmations */
    confirm?: Approver;
  };
  /**
   * What the workspace's tools are told the model takes (a NodeWorkspace's ZAGENT_CAPS); runAgent
   * narrows it to its provider's caps for the run, so a tool hears what will reach the model.
   */
  readonly caps?: ProviderCaps;
}

/** What runAgent uses of a workspace's review desk (a Workspace's `review` fits). */
export interface AgentReviewDesk {
  /** the rejections, as inbox notes */
  readonly inbox: AgentInbox;
  /** start holding verdicts back; the returned function ends the hold and applies what queued */
  hold(): () => Promise<void>;
  /** apply the queued verdicts now */
  drain(): Promise<void>;
}

/** One tool call the model asked for. `parse_error` is set when its arguments were not a JSON object. */
export interface AgentToolCall {
  /** the API's id for the call */
  id: string;
  /** the tool's name */
  name: string;
  /** the parsed arguments */
  args: unknown;
  /** the argument text exactly as the model streamed it */
  raw: string;
  /** why the arguments could not be parsed, when they could not */
  parse_error?: string;
  /**
   * For a vendor's native tool call (a Responses API `apply_patch_call` or `shell_call`): the item
   * exactly as the API sent it, sent back before its output as the API requires.
   */
  item?: Record<string, unknown>;
}

/** The answer to one tool call, as the model will read it. */
export interface AgentToolResult {
  /** the call's id */
  id: string;
  /** the tool's name */
  name: string;
  /** what the tool answered */
  envelope: Envelope;
  /** the text sent to the model: the envelope as JSON (or as the toolset presents it), attached media left out */
  content: string;
  /** images the tool attached, sent as the API's image blocks (only to a provider with vision) */
  media?: AgentMedia[];
  /**
   * For a native toolset: the envelope as its tool presents it (an `apply_patch_call_output`'s
   * status and output, a `shell_call_output`'s output list, a `tool_result`'s text), which the
   * provider sends in the API's own item type.
   */
  output?: Record<string, unknown>;
}

/** One image a tool attached for the model to see. */
export interface AgentMedia {
  /** a file name for it */
  name: string;
  /** its media type (`image/png`) */
  mime: string;
  /** its bytes, base64 */
  data_base64: string;
}

/**
 * The conversation in a provider-neutral form; each provider turns it into its API's messages.
 * `notes` are `[info: ...]` lines that arrived while the calls ran, sent after their results.
 */
export type AgentMessage =
  | {
      /** the person's message */
      role: 'user';
      /** its text */
      content: string;
    }
  | {
      /** a model turn */
      role: 'assistant';
      /** its text */
      content: string;
      /** the tools it asked to call */
      tool_calls: AgentToolCall[];
    }
  | {
      /** the answers to a turn's tool calls */
      role: 'tool';
      /** one per call */
      results: AgentToolResult[];
      /** inbox notes sent after the results */
      notes?: string;
    };

/** A model's media capabilities, as seed 003's ZAGENT_CAPS states them to tools. */
export interface ProviderCaps {
  /** takes images */
  vision: boolean;
  /** takes audio */
  audio: boolean;
  /** takes PDF documents */
  pdf: boolean;
  /** takes video */
  video: boolean;
}

/** Tokens one model turn used, as the API reported them (0 when it reported nothing). */
export interface Usage {
  /** tokens sent */
  input_tokens: number;
  /** tokens produced */
  output_tokens: number;
}

/** Everything one model turn produced. */
export interface ModelTurn {
  /** the model's text */
  text: string;
  /** the tools it asked to call */
  tool_calls: AgentToolCall[];
  /** tokens the turn used */
  usage: Usage;
  /** the API's own reason (`stop`, `tool_calls`, `end_turn`, `tool_use`, `length`, ...) */
  stop_reason: string | null;
}

/** One request to a model: the conversation so far and the tools it may call. */
export interface ModelRequest {
  /** the system prompt */
  system: string;
  /** the conversation so far */
  messages: readonly AgentMessage[];
  /** the tools the model may call */
  tools: readonly ToolInfo[];
  /**
   * A vendor's native tools: the API's own tool entries, sent instead of function definitions
   * for the tools they name (the rest of `tools` still go as functions).
   */
  native?: NativeTools;
  /** aborts the request */
  signal?: AbortSignal;
  /** model text as it streams in */
  onText?: (delta: string) => void;
  /** a 429 or 5xx is being retried after `delay_ms` */
  onRetry?: (info: RetryInfo) => void;
}

/** A retry about to happen. */
export interface RetryInfo {
  /** the attempt about to be made, from 2 */
  attempt: number;
  /** the HTTP status that failed */
  status: number;
  /** the wait before it */
  delay_ms: number;
}

/** A native toolset's tools, as one API sends them. */
export interface NativeTools {
  /** the API whose tool types these are */
  api: 'openai' | 'anthropic';
  /** the API's tool entries (`{ type: 'apply_patch' }`, `{ type: 'bash_20250124', name: 'bash' }`) */
  entries: ReadonlyArray<Record<string, unknown>>;
  /** the workspace tool names they cover */
  names: readonly string[];
}

/** A chat API that can call tools: the OpenAI-compatible one or Anthropic's. */
export interface ModelProvider {
  /** which API it speaks */
  readonly api: 'openai' | 'anthropic';
  /** the model it asks */
  readonly model: string;
  /** what the model can take in besides text (images attached to tool results need `vision`) */
  readonly caps?: ProviderCaps;
  /** the vendor whose native tool types it sends (the Responses provider: openai; Messages: anthropic) */
  readonly native?: 'openai' | 'anthropic';
  /** Send the conversation and tools, and get the model's next turn. */
  turn(request: ModelRequest): Promise<ModelTurn>;
}

/** Parse a tool call's argument text; empty text is `{}` (a call with no arguments). */
export function parseToolArgs(raw: string): { args: unknown; parse_error?: string } {
  if (raw.trim() === '') return { args: {} };
  try {
    const args: unknown = JSON.parse(raw);
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      return { args, parse_error: 'the arguments must be one JSON object' };
    return { args };
  } catch (error) {
    return { args: undefined, parse_error: `the arguments are not valid JSON (${(error as Error).message})` };
  }
}
