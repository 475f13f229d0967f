import {
  runsPrograms,
  waitsForRunner,
  type FindExternalChanges,
  type ToolDefinition,
  type ToolRunContext,
} from '../../tools/schema/define.js';
import { createRunCommandTool, runCommand as canonicalRunCommand } from '../../tools/run-command.js';
import type { CommandSession, ProcessRunner } from '../../process/process-runner.js';
import type { ShellSession } from '../../shell/run.js';
import { runCanonical } from '../adapt.js';

/** What one command line gave: the run_command result fields a vendor's shell output needs. */
export interface LineOutcome {
  stdout: string;
  stderr: string;
  exit_code: number;
  timed_out: boolean;
  change_id?: string;
}

/** Runs one bash command line in the workspace, in the OS sandbox or the built-in shell. */
export interface RunLine {
  (line: string, timeoutSeconds: number, ctx: ToolRunContext): Promise<LineOutcome>;
  /** set when the lines share one session (folder, variables, functions); starts a fresh one */
  restart?: () => Promise<void>;
}

/**
 * A command line over the run_command that does the work: the built-in shell reads the line
 * itself; a program runner (Node's, in the OS sandbox) has no shell, so the line goes to bash.
 */
export function lineRunner(inner: ToolDefinition, shell: boolean): RunLine {
  return async (line: string, timeoutSeconds: number, ctx: ToolRunContext) => {
    const r = await runCanonical(
      inner,
      { command: shell ? line : ['bash', '-c', line], timeout_seconds: timeoutSeconds },
      ctx,
    );
    return {
      stdout: String(r.stdout ?? ''),
      stderr: String(r.stderr ?? ''),
      exit_code: r.timed_out ? -1 : Number(r.exit_code ?? 0),
      timed_out: r.timed_out === true,
      ...(r.change_id ? { change_id: r.change_id as string } : {}),
    };
  };
}

/**
 * A vendor's shell tool made over the host's run_command: given one made over a runner (Node's,
 * whose `programs` names it) it opens its sessions on that runner at once; given none, it waits
 * like canonical's run_command for the workspace's runner (the built-in shell unless the host
 * gives its own).
 */
export function overRunner(
  runCommand: ToolDefinition | undefined,
  build: (run: RunLine) => ToolDefinition,
): ToolDefinition {
  const inner = runCommand ?? canonicalRunCommand;
  const behind = inner.programs;
  if (behind?.runner) return build(sessionRunner(behind.runner, behind.findChanges) ?? lineRunner(inner, false));
  // A host's own run_command of unknown make runs programs: its lines go through bash.
  if (!waitsForRunner(inner)) return build(lineRunner(inner, false));
  return runsPrograms((runner, findChanges) =>
    build(
      runner
        ? (sessionRunner(runner, findChanges) ??
            lineRunner(createRunCommandTool(runner, findChanges), runner.kind === 'shell'))
        : lineRunner(inner, false),
    ),
  );
}

/**
 * Lines over one session of the runner (opened at the first line, one per tool, so one per
 * workspace), each still a run_command on it: confined, timed, its changes logged and
 * snapshotted. Undefined when the runner has no sessions.
 */
function sessionRunner(runner: ProcessRunner, findChanges?: FindExternalChanges): RunLine | undefined {
  if (!runner.openSession && runner.kind !== 'shell') return undefined;
  let session: CommandSession | undefined;
  const open = () => (session ??= runner.openSession?.() ?? shellSession(runner));
  const inner = createRunCommandTool({ kind: 'shell', run: (request) => open().run(request) }, findChanges);
  const run: RunLine = lineRunner(inner, true);
  run.restart = async () => {
    await session?.restart();
  };
  return run;
}

/** A session of the built-in shell: its state travels with each line, held here (in the page). */
function shellSession(runner: ProcessRunner): CommandSession {
  const held: ShellSession = {};
  const reset = async () => {
    delete held.state;
  };
  return { run: (request) => runner.run({ ...request, shellSession: held }), restart: reset, close: reset };
}
