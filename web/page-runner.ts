import type { WorkspaceFs } from '../src/fs/types.js';
import { createShellRunner, type ShellRunnerOptions } from '../src/process/shell-runner.js';
import type { ScriptCopyLimits } from '../src/shell/commands/shell/node.js';
import type { CommandFn } from '../src/shell/context.js';
import type { ProcessRunner } from '../src/process/process-runner.js';

/** Options for the page's shell: the built-in shell's, and how much of the workspace a `node` script gets. */
export interface PageRunnerOptions extends ShellRunnerOptions {
  /**
   * The copy of the workspace a script's worker gets (default 5,000 files, 32 MiB, without
   * `node_modules/` and `.git/`). A run that leaves files out says how many on stderr.
   */
  scriptCopy?: ScriptCopyLimits;
}

// `node` loads with the shell, on the first command that names it, not with the page or worker.
function workerNode(limits: ScriptCopyLimits): CommandFn {
  let command: Promise<CommandFn> | null = null;
  return async (ctx) => (await (command ??= import('./node-host.js').then((m) => m.nodeCommandWith(limits))))(ctx);
}

/**
 * The built-in shell with `node FILE.js` / `node -e` in throwaway module workers where the host
 * can start them (a page, a dedicated worker): what a page
 * workspace gets with `createWorkspace({ fs, processRunner: createPageRunner(fs) })`, and what the
 * workspace worker uses. The shell and the script host load on the first command.
 */
export function createPageRunner(fs: WorkspaceFs, root = '/', options: PageRunnerOptions = {}): ProcessRunner {
  const { scriptCopy, ...shellOptions } = options;
  // Checked here, not on the first `node`, so a wrong option fails where it was written.
  for (const [name, value] of Object.entries(scriptCopy ?? {})) {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`scriptCopy.${name} must be a whole number of 0 or more, not ${String(value).slice(0, 40)}`);
  }
  // Where no module worker can be started, the shell keeps its own `node`, which says it is not available (exit 127).
  const node: Record<string, CommandFn> = typeof Worker === 'function' ? { node: workerNode(scriptCopy ?? {}) } : {};
  return createShellRunner(fs, root, { ...shellOptions, extraCommands: { ...node, ...shellOptions.extraCommands } });
}
