import type { WorkspaceFs } from '../src/fs/types.js';
import { createShellRunner, type ShellRunnerOptions } from '../src/shell-runner.js';
import type { CommandFn } from '../src/shell/context.js';
import type { ProcessRunner } from '../src/tools/process-runner.js';

// `node` loads with the shell, on the first command that names it, not with the page or worker.
const workerNode: CommandFn = async (ctx) => (await import('./node-host.js')).nodeCommand(ctx);

/**
 * The built-in shell with `node FILE.js` / `node -e` in throwaway module workers where the host
 * can start them (a page, a dedicated worker): what a page
 * workspace gets with `createWorkspace({ fs, processRunner: createPageRunner(fs) })`, and what the
 * workspace worker uses. The shell and the script host load on the first command.
 */
export function createPageRunner(fs: WorkspaceFs, root = '/', options: ShellRunnerOptions = {}): ProcessRunner {
  // Where no module worker can be started, the shell keeps its own `node`, which says it is not available (exit 127).
  const node: Record<string, CommandFn> = typeof Worker === 'function' ? { node: workerNode } : {};
  return createShellRunner(fs, root, { ...options, extraCommands: { ...node, ...options.extraCommands } });
}
