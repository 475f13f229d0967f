/** The agent loop: any toolset, any OpenAI-compatible or Anthropic model, over `fetch` only. */
export { runAgent, type AgentRunOptions, type AgentOutcome, type AgentToolset } from './loop.js';
export { AgentError, type AgentErrorCode, type AgentEvent, type AgentListener, type StopReason } from './events.js';
export type {
  AgentWorkspace,
  AgentMessage,
  AgentMedia,
  AgentToolCall,
  AgentToolResult,
  ModelProvider,
  ModelRequest,
  ModelTurn,
  NativeTools,
  ProviderCaps,
  Usage,
  RetryInfo,
} from './types.js';
export { NoteQueue, infoLines, type AgentInbox, type AgentNote } from './inbox.js';
export { exitNote, taskInbox } from './task-inbox.js';
export { splitMedia } from './media.js';
export { openAIProvider, chatCompletionsUrl, type OpenAIOptions } from './providers/openai.js';
export { openAIResponsesProvider, responsesUrl, toResponsesInput } from './providers/openai-responses.js';
export { anthropicProvider, messagesUrl, type AnthropicOptions } from './providers/anthropic.js';
export { createProvider, guessApi, providerCaps, type ProviderOptions, type ApiKind } from './provider.js';
export { systemPrompt } from './system-prompt.js';
export { TranscriptRecorder, toJsonl, type TranscriptLine } from './transcript.js';
export { readSse, type SseEvent } from './sse.js';
export type { RetryPolicy } from './retry.js';
export type { HttpOptions } from './http.js';
