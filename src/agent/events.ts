import type { Envelope } from '../contract/index.js';
import type { ApprovalRequest } from '../workspace/policy.js';
import type { AgentToolCall, Usage } from './types.js';

/**
 * Why a model request failed, for the person running the agent (not a tool error code: the
 * workspace's closed list is about tool calls, these are about reaching the model).
 */
export type AgentErrorCode =
  | 'UNREACHABLE'
  | 'UNAUTHORIZED'
  | 'RATE_LIMITED'
  | 'NO_TOOL_SUPPORT'
  | 'MODEL_NOT_FOUND'
  | 'BAD_RESPONSE'
  | 'MODEL_ERROR';

/** A model request that failed after any retries; `message` says what to do about it. */
export class AgentError extends Error {
  constructor(readonly code: AgentErrorCode, message: string, readonly status?: number) {
    super(message);
    this.name = 'AgentError';
  }
}

/** Why a run ended. */
export type StopReason = 'answered' | 'step_limit' | 'token_budget' | 'stopped' | 'error';

/** Every step of a run, in order, so a UI or a terminal can render it as it happens. */
export type AgentEvent =
  | { type: 'start'; api: string; model: string; tools: string[] }
  | { type: 'step'; step: number }
  | { type: 'text'; step: number; delta: string }
  | { type: 'assistant'; step: number; text: string; tool_calls: AgentToolCall[] }
  | { type: 'tool_call'; step: number; call: AgentToolCall }
  | { type: 'tool_result'; step: number; call: AgentToolCall; envelope: Envelope }
  | { type: 'usage'; step: number; turn: Usage; total: Usage }
  | { type: 'retry'; step: number; attempt: number; status: number; delay_ms: number }
  | { type: 'error'; step: number; code: AgentErrorCode; message: string; status?: number }
  | { type: 'approval'; request: ApprovalRequest; approved: boolean }
  | { type: 'notes'; step: number; notes: string[] }
  | { type: 'waiting'; step: number; tasks: number }
  | { type: 'done'; reason: StopReason; steps: number; text: string; usage: Usage };

/** Receives every event of a run. */
export type AgentListener = (event: AgentEvent) => void;
