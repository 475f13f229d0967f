import { ElicitResultSchema, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallOptions } from '../../workspace-core.js';
import type { Approver } from '../../workspace/policy.js';
import { progressReporter } from './progress.js';

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A way to send the client a request on the stream of the request being handled (over HTTP the
 * only stream sure to be open): the SDK's `extra.sendRequest`.
 */
export type RequestSender = Pick<Extra, 'sendRequest'>;

/** How long a person has to answer an elicitation before the call is refused (5 minutes). */
export const ELICITATION_TIMEOUT_MS = 5 * 60_000;

/**
 * What one tools/call brings to the workspace: the client's cancellation (`notifications/cancelled`
 * aborts the SDK's signal), progress as `notifications/progress` when the request carried a
 * `progressToken`, and, when the client declared elicitation, an approver that asks its person.
 */
export function mcpCallOptions(
  extra: Extra,
  canElicit: boolean,
  elicitTimeoutMs = ELICITATION_TIMEOUT_MS,
): CallOptions {
  const token = extra._meta?.progressToken;
  const options: CallOptions = { signal: extra.signal };
  if (token !== undefined)
    options.onProgress = progressReporter(token, (params) => {
      void extra.sendNotification({ method: 'notifications/progress', params }).catch(() => {});
    });
  if (canElicit) options.confirm = elicitingApprover(extra, elicitTimeoutMs, extra.signal);
  return options;
}

/**
 * Ask the client's person through `elicitation/create`, sent by `sender` (the request's own stream,
 * or the server itself for a call the early stdio answered): only `accept` allows; decline, cancel,
 * a timeout or a failure refuses.
 */
export function elicitingApprover(sender: RequestSender, timeout: number, signal?: AbortSignal): Approver {
  return async (paths, action, request) => {
    const what =
      action === 'run' ? `run the tool ${request.tool}` : `${action} ${paths.map((p) => `'${p}'`).join(', ')}`;
    const args = request.args !== undefined ? ` with arguments ${JSON.stringify(request.args).slice(0, 2000)}` : '';
    const result = await sender.sendRequest(
      {
        method: 'elicitation/create',
        params: {
          message: `The agent's call ${request.tool} wants to ${what}${args}. Accept to allow it; decline to refuse (nothing changes).`,
          requestedSchema: { type: 'object', properties: {} },
        },
      },
      ElicitResultSchema,
      { timeout, ...(signal ? { signal } : {}) },
    );
    return result.action === 'accept';
  };
}
