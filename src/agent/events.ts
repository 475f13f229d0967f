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
  /**
   * @param code - why the request failed
   * @param message - what to do about it
   * @param status - the HTTP status, when there was one
   */
  constructor(
    readonly code: AgentErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'AgentError';
  }
}

/** Why a run ended. */
export type StopReason = 'answered' | 'step_limit' | 'token_budget' | 'stopped' | 'error';

/** Every step of a run, in order, so a UI or a terminal can render it as it happens. */
export type AgentEvent =
  | {
      /** the run began */
      type: 'start';
      /** the provider's API (`openai`, `anthropic`) */
      api: string;
      /** the model asked */
      model: string;
      /** the tools offered */
      tools: string[];
    }
  | {
      /** a model request begins */
      type: 'step';
      /** the step's number, from 1 */
      step: number;
    }
  | {
      /** streamed text of the answer */
      type: 'text';
      /** the step it belongs to */
      step: number;
      /** the new text */
      delta: string;
    }
  | {
      /** the model's whole turn */
      type: 'assistant';
      /** the step it belongs to */
      step: number;
      /** its text */
      text: string;
      /** the tools it asked to call */
      tool_calls: AgentToolCall[];
    }
  | {
      /** a tool call is about to run */
      type: 'tool_call';
      /** the step it belongs to */
      step: number;
      /** the call */
      call: AgentToolCall;
    }
  | {
      /** a tool call ran */
      type: 'tool_result';
      /** the step it belongs to */
      step: number;
      /** the call */
      call: AgentToolCall;
      /** what the tool answered */
      envelope: Envelope;
    }
  | {
      /** tokens used */
      type: 'usage';
      /** the step it belongs to */
      step: number;
      /** by this turn */
      turn: Usage;
      /** by the run so far */
      total: Usage;
    }
  | {
      /** a model request failed and is tried again */
      type: 'retry';
      /** the step it belongs to */
      step: number;
      /** the attempt about to be made, from 2 */
      attempt: number;
      /** the HTTP status that failed */
      status: number;
      /** the wait before the attempt */
      delay_ms: number;
    }
  | {
      /** the model could not be reached or refused the request; the run ends */
      type: 'error';
      /** the step it belongs to */
      step: number;
      /** why */
      code: AgentErrorCode;
      /** what to do about it */
      message: string;
      /** the HTTP status, when there was one */
      status?: number;
    }
  | {
      /** a confirmation was asked for and answered */
      type: 'approval';
      /** what was asked */
      request: ApprovalRequest;
      /** the answer */
      approved: boolean;
    }
  | {
      /** notes from the inbox joined the conversation */
      type: 'notes';
      /** the step they joined */
      step: number;
      /** their text */
      notes: string[];
    }
  | {
      /** the run waits for background tasks before it goes on */
      type: 'waiting';
      /** the step it waits after */
      step: number;
      /** how many tasks are still running */
      tasks: number;
    }
  | {
      /** the run ended */
      type: 'done';
      /** why */
      reason: StopReason;
      /** how many steps it took */
      steps: number;
      /** the final answer */
      text: string;
      /** tokens used in all */
      usage: Usage;
    };

/** Receives every event of a run. */
export type AgentListener = (event: AgentEvent) => void;
