import type { CallOptions } from '../../workspace-core.js';
import type { Approver } from '../../workspace/policy.js';
import { toCallResult } from './content.js';
import { progressReporter, type ProgressParams } from './progress.js';
import type { ServedWorkspace } from './types.js';

/** One tools/call as the early stdio read it, and what it may use while it runs. */
export interface EarlyCall {
  /** the request's params: `name`, `arguments`, `_meta.progressToken` */
  params: {
    /** the tool to run */
    name: string;
    /** its arguments */
    arguments?: Record<string, unknown>;
    /** the request's metadata */
    _meta?: {
      /** where progress notifications go */
      progressToken?: string | number;
    };
  };
  /** aborted by the client's `notifications/cancelled` */
  signal: AbortSignal;
  /** send `notifications/progress` */
  progress(params: ProgressParams): void;
  /** whether the client declared elicitation in its initialize */
  canElicit: boolean;
}

/** The answers the early stdio gives to tools/list and tools/call, before the SDK server has loaded. */
export interface EarlyTools {
  /** the tools/list result */
  list(): Record<string, unknown>;
  /** the tools/call result */
  call(call: EarlyCall): Promise<Record<string, unknown>>;
}

/**
 * tools/list and tools/call on the workspace the server serves, answered exactly as the SDK
 * server answers them (the same listing, the same call result), without the
 * SDK: a client's first call then waits for the workspace, not for the SDK's schemas. A call that
 * needs its person's approval asks through `approver` (the SDK server's elicitation, which loads
 * then), when the client can be asked.
 */
export function earlyTools(served: ServedWorkspace, approver: (signal: AbortSignal) => Approver): EarlyTools {
  const { ws, set } = served;
  let listing: Record<string, unknown> | undefined;
  return {
    list: () => {
      listing ??= { tools: set.toMcp() };
      return listing;
    },
    call: async ({ params, signal, progress, canElicit }) => {
      const options: CallOptions = { signal };
      const token = params._meta?.progressToken;
      if (token !== undefined) options.onProgress = progressReporter(token, progress);
      if (canElicit) options.confirm = approver(signal);
      const envelope = await ws.call(params.name, params.arguments ?? {}, options);
      return toCallResult(envelope, set.present) as unknown as Record<string, unknown>;
    },
  };
}
