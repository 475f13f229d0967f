import type { WorkspaceFs } from '../src/fs/types.js';
import { createShellRunner, type ShellRunnerOptions } from '../src/shell-runner.js';
import type { CommandFn } from '../src/shell/context.js';
import type { ProcessRunner } from '../src/tools/process-runner.js';

/** Whether this page or worker can start module workers, where `node` scripts run. */
const canStartWorkers = () => typeof Worker === 'function';

// `node` loads with the shell, on the first command that names it; where no worker can be
// started it falls through to the shell's own `node`, which says it is not available (exit 127).
const workerNode: CommandFn = async (ctx) => (canStartWorkers()
  ? (await import('./node-host.js')).nodeCommand(ctx)
  : (await import('../src/shell/commands/node.js')).nodeUnavailable(ctx));

/**
 * The built-in shell with `node FILE.js` / `node -e` in throwaway module workers: what a page
 * workspace gets with `createWorkspace({ fs, processRunner: createPageRunner(fs) })`, and what the
 * workspace worker uses. The shell and the script host load on the first command.
 */
export function createPageRunner(fs: WorkspaceFs, root = '/', options: ShellRunnerOptions = {}): ProcessRunner {
  return createShellRunner(fs, root, { ...options, extraCommands: { node: workerNode, ...options.extraCommands } });
}
