import type { ToolRunContext as ToolContext } from './define.js';
import { ToolError } from '../contract/index.js';
import type { ConfirmAction } from '../workspace/policy.js';

/** Ask the workspace's confirm policy; a refusal, a failure or a timeout is CONFIRMATION_DENIED. */
export async function confirmOrRefuse(ctx: ToolContext, paths: string[], action: ConfirmAction): Promise<void> {
  const confirm = ctx.policy.confirm;
  if (!confirm) return;
  let approved = false;
  try {
    approved = (await confirm(paths, action)) === true;
  } catch {
    approved = false;
  }
  if (!approved) {
    throw new ToolError('CONFIRMATION_DENIED', `the ${action} of ${paths.map((p) => `'${p}'`).join(', ')} was not confirmed, so nothing changed`, {
      hint: 'Ask the user before trying again, or leave the files in place.',
    });
  }
}
