import type { FileStep } from '../workspace/file-writer.js';
import { parse } from 'shell-quote';
import { ToolError } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { defineTool, type ToolDefinition } from './define.js';
import { recordExternalChanges, type FindExternalChanges } from './external-changes.js';
import type { ProcessRunner } from './process-runner.js';

interface RunCommandArgs {
  command: string | string[];
  cwd?: string;
  timeout_seconds?: number;
  env?: Record<string, string>;
  background?: boolean;
}

/** Seconds a foreground command may run when the call names no limit. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 30;

// `$` is swapped for a noncharacter before parsing, so shell-quote cannot expand variables.
const DOLLAR = '\uFDD0';

/**
 * Split a command line into words the way a POSIX shell splits them (quotes, backslashes), and do
 * nothing else: there is no shell, so `$HOME`, `*.ts`, `|`, `>` and `&&` stay literal words.
 */
export function splitCommand(command: string): string[] {
  const guarded = !command.includes(DOLLAR);
  const tokens = parse(guarded ? command.replaceAll('$', DOLLAR) : command, (key) => `$${key}`);
  const words: string[] = [];
  for (const token of tokens) {
    if (typeof token === 'string') words.push(token);
    else if ('comment' in token) words.push(...`#${token.comment}`.split(/\s+/).filter(Boolean));
    else if ('pattern' in token && typeof token.pattern === 'string') words.push(token.pattern);
    else if ('op' in token) words.push(String(token.op));
  }
  return guarded ? words.map((w) => w.replaceAll(DOLLAR, '$')) : words;
}

const PROGRAMS_COMMAND = 'The program and its arguments: an argv array, or one string split like a POSIX shell splits words. ' +
  "There is no shell: pipes, redirections, globs and $VARIABLES are passed literally; run ['sh', '-c', '...'] when you need them.";
const SHELL_COMMAND = 'A bash command line (pipes, redirections, &&, ||, ;, globs, quotes, $VARIABLES, $(...), if/for/while), ' +
  'or an argv array run as one command. `/` is the workspace root.';

/** The schema, with the `command` description that fits the runner (one schema, two wordings). */
const schemaFor = (shell: boolean) => ({
  type: 'object',
  properties: {
    command: {
      description: shell ? SHELL_COMMAND : PROGRAMS_COMMAND,
      anyOf: [{ type: 'string', minLength: 1 }, { type: 'array', items: { type: 'string' }, minItems: 1 }],
    },
    cwd: { type: 'string', description: "Working folder, relative to the workspace root (default: the workspace's current folder)." },
    timeout_seconds: {
      type: 'number', exclusiveMinimum: 0,
      description: `Kill the command and everything it started after this many seconds (default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}; background tasks default to no limit).`,
    },
    env: { type: 'object', additionalProperties: { type: 'string' }, description: 'Extra environment variables for this command.' },
    background: { type: 'boolean', description: 'Start it as a background task and return a task_id at once (see task_output, task_wait, task_kill).' },
  },
  required: ['command'],
  additionalProperties: false,
} as const);

/**
 * The canonical run_command over a host's process runner. Without a runner (the browser) every
 * call is NOT_SUPPORTED. `findChanges` (the workspace's rescan) puts what a command changed in
 * the change log and the next snapshot; the result then lists the files and gives a change_id.
 */
export function createRunCommandTool(runner?: ProcessRunner, findChanges?: FindExternalChanges): ToolDefinition<RunCommandArgs> {
  const shell = runner?.kind === 'shell';
  return defineTool<RunCommandArgs, unknown>({
    name: 'run_command',
    description: shell
      ? 'Run a bash command line in the workspace\'s built-in shell and return its exit code, stdout and stderr (each capped, keeping head and tail). ' +
        'Its writes become one change you can undo. A nonzero exit or a timeout (timed_out: true, exit_code -1) is a normal result.' +
        (runner?.summary ? ` ${runner.summary}` : '')
      : 'Run a program in the workspace and return its exit code, stdout and stderr (each capped, keeping head and tail). ' +
        'A nonzero exit or a timeout (timed_out: true, exit_code -1) is a normal result. No shell is involved.',
    mutates: true,
    schema: schemaFor(shell),
    async run(args, ctx) {
      if (!runner) {
        throw new ToolError('NOT_SUPPORTED', 'run_command cannot run here: this workspace has no process runner (a browser page cannot start programs)', {
          hint: 'Use the file tools instead, or ask the host to provide a process runner.',
        });
      }
      const argv = typeof args.command === 'string' ? splitCommand(args.command) : args.command;
      if (argv.length === 0 || argv[0] === '') {
        throw new ToolError('INVALID_ARGUMENTS', 'the command is empty', { problems: [{ path: '/command', message: 'must name a program' }] });
      }
      const dir = await ctx.resolve(args.cwd ?? '.', 'read');
      if (!dir.stat) throw new ToolError('NOT_FOUND', `the working folder '${displayPath(dir.rel)}' does not exist`, { hint: 'Create it first, or pick another cwd.' });
      if (dir.stat.type !== 'dir') throw new ToolError('NOT_A_DIRECTORY', `the working folder '${displayPath(dir.rel)}' is not a folder`);
      const background = args.background === true;
      const seconds = args.timeout_seconds ?? (background ? undefined : DEFAULT_COMMAND_TIMEOUT_SECONDS);
      const request = { argv, ...(typeof args.command === 'string' ? { commandLine: args.command } : {}), cwd: dir.abs, cwdDisplay: displayPath(dir.rel), root: ctx.paths.toAbs(''), env: args.env ?? {}, apply: (steps: FileStep[]) => ctx.writer.apply(steps, { allOrNothing: false }), timeoutMs: seconds === undefined ? null : seconds * 1000 };
      if (background) {
        if (!runner.start) throw new ToolError('NOT_SUPPORTED', 'this host cannot run background tasks', { hint: 'Run the command without background.' });
        return { ...(await runner.start(request)), cwd: request.cwdDisplay };
      }
      const { files, ...result } = await runner.run(request);
      return { ...result, ...(await recordExternalChanges(ctx, findChanges, files)) };
    },
  });
}

/** run_command as the browser has it: NOT_SUPPORTED until a host supplies a runner. */
export const runCommand = createRunCommandTool();
