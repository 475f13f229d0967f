import type { CommandRequest, CommandResult, ProcessRunner } from '../../process/process-runner.js';
import { createRunCommandTool } from '../../tools/run-command.js';
import type { ToolDefinition } from '../../tools/schema/define.js';
import type { FindExternalChanges } from '../../tools/external-changes.js';
import { DEFAULT_OUTPUT_CAP } from './output-cap.js';
import { startProcess } from './spawn.js';
import { chooseSandbox, sandboxChoice, type SandboxMode, type SandboxPolicy } from './sandbox.js';
import { execRequest } from './sandbox-exec.js';
import type { TaskRegistry } from './tasks.js';

/** How Node runs commands for a workspace. */
export interface NodeProcessOptions {
  /** bytes kept of each of stdout and stderr (default 16 KiB, head and tail) */
  maxOutputBytes?: number;
  /** more variable names to withhold from programs without the OS sandbox, exact or `PREFIX*` (credential-like names always are) */
  scrubEnv?: string[];
  /** the environment programs take their variables from (default process.env) */
  baseEnv?: NodeJS.ProcessEnv;
  /**
   * `os`: every command runs in bubblewrap (Linux), the workspace at /workspace, no network, an
   * allow-listed environment; `none`: plain child processes. Default: `os` where bubblewrap
   * works, else `none`. Asking for `os` where it cannot work makes each command NOT_SUPPORTED.
   */
  sandbox?: SandboxMode;
  /** what the OS sandbox lets commands do: network, more variables, more hidden paths */
  sandboxPolicy?: SandboxPolicy;
}

/**
 * A ProcessRunner over real child processes: no shell, own process group, capped streams,
 * credential-free environment, in the OS sandbox unless `sandbox: 'none'`. Background commands
 * become tasks in `tasks`; `afterExit` runs when one ends (the workspace's rescan).
 */
export function createNodeRunner(
  tasks: TaskRegistry,
  options: NodeProcessOptions = {},
  afterExit?: (tool: string) => Promise<void>,
): ProcessRunner {
  const choice = sandboxChoice(options.sandbox, options.sandboxPolicy);
  const spawnRequest = async (request: CommandRequest) =>
    execRequest(
      {
        argv: request.argv,
        hostRoot: request.root ?? request.cwd,
        hostCwd: request.cwd,
        extra: request.env,
        parentEnv: options.baseEnv ?? process.env,
        scrubEnv: options.scrubEnv,
        gitWritable: request.gitWritable === true,
      },
      await chooseSandbox(choice),
      choice.policy,
      { timeoutMs: request.timeoutMs, maxOutputBytes: options.maxOutputBytes ?? DEFAULT_OUTPUT_CAP },
    );
  return {
    async run(request): Promise<CommandResult> {
      const running = await startProcess(await spawnRequest(request));
      const { exit_code, stdout, stderr, timed_out, truncated, duration_ms, note } = await running.done;
      return { exit_code, stdout, stderr, timed_out, truncated, duration_ms, ...(note ? { note } : {}) };
    },
    async start(request) {
      const running = await startProcess(await spawnRequest(request));
      const task = tasks.add(running, request.argv.join(' '), {
        afterExit: afterExit && (() => afterExit('run_command')),
      });
      return { task_id: task.task_id };
    },
  };
}

/** The canonical run_command for Node, with the workspace's rescan for foreground and background commands. */
export function nodeRunCommand(
  tasks: TaskRegistry,
  options: NodeProcessOptions,
  hooks: { findChanges: FindExternalChanges; afterExit: (tool: string) => Promise<void> },
): ToolDefinition {
  return createRunCommandTool(createNodeRunner(tasks, options, hooks.afterExit), hooks.findChanges);
}
