import { ToolError } from '../contract/index.js';
import type { ConfirmAction, ResolvedPolicy } from './policy.js';

/** What asking needs from a tool's context: the policy, and which tool asks. */
export interface ApprovalContext {
  readonly policy: ResolvedPolicy;
  readonly tool: string;
}

/** How a confirmation treats a workspace with no approver. */
export interface ConfirmOptions {
  /** the surface promises this confirmation, so no approver means refused (default false: proceed) */
  required?: boolean;
  /** the call's arguments, shown to the approver (a manifest tool's run) */
  args?: unknown;
  /** what a refusal says nothing changed of (default: nothing changed) */
  refusedHint?: string;
}

/** The hint for a refusal because nobody could be asked: how a host supplies an approver. */
export const NO_APPROVER_HINT =
  'Nobody is here to approve it: the CLI asks on a terminal (or allows it with --approve all), ' +
  'sandpit mcp asks through the MCP client when the client supports elicitation, ' +
  "and a program passes a confirm option (policy.confirm, or runAgent's onApproval). Otherwise do the task another way.";

/**
 * Ask the workspace's confirm policy. A refusal, a failure or a timeout is CONFIRMATION_DENIED;
 * so is having no approver when the confirmation is `required`.
 */
export async function confirmOrRefuse(
  ctx: ApprovalContext,
  paths: string[],
  action: ConfirmAction,
  options: ConfirmOptions = {},
): Promise<void> {
  const confirm = ctx.policy.confirm;
  const what = `the ${action === 'run' ? 'run' : action} of ${paths.map((p) => `'${p}'`).join(', ')}`;
  if (!confirm) {
    if (!options.required) return;
    throw new ToolError(
      'CONFIRMATION_DENIED',
      `${what} needs approval, and this workspace has no approver, so nothing changed`,
      { hint: NO_APPROVER_HINT },
    );
  }
  let approved = false;
  try {
    approved =
      (await confirm(paths, action, {
        action,
        paths,
        tool: ctx.tool,
        ...(options.args !== undefined ? { args: options.args } : {}),
      })) === true;
  } catch {
    approved = false;
  }
  if (!approved) {
    throw new ToolError('CONFIRMATION_DENIED', `${what} was not approved, so nothing changed`, {
      hint: options.refusedHint ?? 'Ask the user before trying again, or leave the files in place.',
    });
  }
}
