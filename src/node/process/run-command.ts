import type { CommandRequest, CommandResult, CommandSession, ProcessRunner } from '../../process/process-runner.js';
import { replayedBashSession, SESSION_INSIDE, sessionArgv } from './bash-session.js';
import { createRunCommandTool } from '../../tools/run-command.js';
import type { ToolDefinition } from '../../tools/schema/define.js';
import type { FindExternalChanges } from '../../tools/external-changes.js';
import { DEFAULT_OUTPUT_CAP } from './output-cap.js';
import { reportOutputProgress } from './output-progress.js';
import { startProcess } from './spawn.js';
import { chooseSandbox, sandboxChoice, type SandboxMode, type SandboxPolicy } from './sandbox.js';
import { execRequest } from './sandbox-exec.js';
import type { ProcessTaskRegistry } from './tasks.js';

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

/** Node's runner, which also ends the bash sessions it opened when its workspace closes. */
export interface NodeRunner extends ProcessRunner {
  /** Close every session this runner opened (their state folders are removed). */
  closeSessions(): Promise<void>;
}

/**
 * A ProcessRunner over real child processes: no shell, own process group, capped streams,
 * credential-free environment, in the OS sandbox unless `sandbox: 'none'`. Background commands
 * become tasks in `tasks`; `afterExit` runs when one ends (the workspace's rescan).
 */
export function createNodeRunner(
  tasks: ProcessTaskRegistry,
  options: NodeProcessOptions = {},
  afterExit?: (tool: string) => Promise<void>,
): NodeRunner {
  const choice = sandboxChoice(options.sandbox, options.sandboxPolicy);
  // A session line is bash around the line, with the session's state folder mounted (see bash-session.ts).
  const spawnRequest = async (request: CommandRequest, session?: { host: string }) => {
    const mode = await chooseSandbox(choice);
    const inside = mode === 'os' ? SESSION_INSIDE : session?.host;
    return execRequest(
      {
        argv: session ? sessionArgv(request, inside!) : request.argv,
        hostRoot: request.root ?? request.cwd,
        hostCwd: request.cwd,
        extra: request.env,
        parentEnv: options.baseEnv ?? process.env,
        scrubEnv: options.scrubEnv,
        gitWritable: request.gitWritable === true,
        ...(session
          ? { mounts: [{ host: session.host, writable: true, inside: SESSION_INSIDE }], displayName: 'bash' }
          : {}),
      },
      mode,
      choice.policy,
      { timeoutMs: request.timeoutMs, maxOutputBytes: options.maxOutputBytes ?? DEFAULT_OUTPUT_CAP },
    );
  };
  const runOnce = async (request: CommandRequest, session?: { host: string }): Promise<CommandResult> => {
    const running = await startProcess(await spawnRequest(request, session));
    const endProgress = request.onProgress ? reportOutputProgress(running, request.onProgress) : undefined;
    const outcome = await running.done;
    endProgress?.();
    const { exit_code, stdout, stderr, timed_out, truncated, duration_ms, note } = outcome;
    return { exit_code, stdout, stderr, timed_out, truncated, duration_ms, ...(note ? { note } : {}) };
  };
  const sessions = new Set<CommandSession>();
  return {
    run: (request) => runOnce(request),
    openSession() {
      const session = replayedBashSession(runOnce);
      sessions.add(session);
      return session;
    },
    async closeSessions() {
      await Promise.all([...sessions].map((s) => s.close()));
      sessions.clear();
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
  tasks: ProcessTaskRegistry,
  options: NodeProcessOptions,
  hooks: { findChanges: FindExternalChanges; afterExit: (tool: string) => Promise<void> },
  runner: NodeRunner = createNodeRunner(tasks, options, hooks.afterExit),
): ToolDefinition {
  return createRunCommandTool(runner, hooks.findChanges);
}
