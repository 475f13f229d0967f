import type { FileStep } from '../workspace/file-writer.js';
import { s, ToolError, type Infer } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { defineTool, RUNS_PROGRAMS, runsPrograms } from './schema/define.js';
import { recordExternalChanges, recordKnownChanges, type FindExternalChanges } from './external-changes.js';
import type { CommandResult, ProcessRunner } from '../process/process-runner.js';
import { externalChangeResults } from './schema/result-schemas.js';
import type { RunCommandArgs, RunCommandResult, RunCommandTool } from './run-command-types.js';

/** Seconds a foreground command may run when the call names no limit. */
export const DEFAULT_COMMAND_TIMEOUT_SECONDS = 30;

const PROGRAMS_COMMAND =
  'The program and its arguments: an argv array, or one string split like a POSIX shell splits words. ' +
  "There is no shell: pipes, redirections, globs and $VARIABLES are passed literally; run ['sh', '-c', '...'] when you need them.";
const SHELL_COMMAND =
  'A bash command line (pipes, redirections, &&, ||, ;, globs, quotes, $VARIABLES, $(...), if/for/while), ' +
  'or an argv array run as one command. `/` is the workspace root.';

/** The schema, with the `command` description that fits the runner (one schema, two wordings). */
const makeSchema = (shell: boolean) =>
  s.object({
    command: s.anyOf([s.string({ minLength: 1 }), s.array(s.string(), { minItems: 1 })], {
      description: shell ? SHELL_COMMAND : PROGRAMS_COMMAND,
    }),
    cwd: s.optional(
      s.string({
        description: "Working folder, relative to the workspace root (default: the workspace's current folder).",
      }),
    ),
    timeout_seconds: s.optional(
      s.number({
        exclusiveMinimum: 0,
        description: `Kill the command and everything it started after this many seconds (default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}; background tasks default to no limit).`,
      }),
    ),
    env: s.optional(s.record(s.string(), { description: 'Extra environment variables for this command.' })),
    background: s.optional(
      s.boolean({
        description:
          'Start it as a background task and return a task_id at once (see task_output, task_wait, task_kill).',
      }),
    ),
  });

// Made once per wording: a workspace binds its own run_command, and a schema is compiled for
// checking the first time it is used, so a schema per tool would be compiled again in every workspace.
const schemas = new Map<boolean, ReturnType<typeof makeSchema>>();
const schemaFor = (shell: boolean) => {
  let schema = schemas.get(shell);
  if (!schema) schemas.set(shell, (schema = makeSchema(shell)));
  return schema;
};

// A foreground command gives its outcome; a background one only its task_id and folder.
const resultSchema = s.object({
  exit_code: s.optional(s.integer({ description: '-1 after a timeout.' })),
  stdout: s.optional(s.string()),
  stderr: s.optional(s.string()),
  timed_out: s.optional(s.boolean()),
  truncated: s.optional(s.boolean({ description: 'stdout or stderr was cut (head and tail kept).' })),
  duration_ms: s.optional(s.number()),
  note: s.optional(
    s.string({
      description: 'What to know beyond the fields, such as the writes kept by a command that failed part-way.',
    }),
  ),
  ...externalChangeResults,
  task_id: s.optional(
    s.string({ description: 'For background: true, the task to follow with task_output, task_wait, task_kill.' }),
  ),
  cwd: s.optional(s.string({ description: 'For background: true, the folder it runs in.' })),
});

// The interfaces are the schemas' types written out (so the reference documents each field);
// these lines fail to compile the moment either side drifts from the other.
type SchemaArgs = Infer<ReturnType<typeof schemaFor>>;
type SchemaResult = Infer<typeof resultSchema>;
const argsAgree: [RunCommandArgs, SchemaArgs] = [{} as SchemaArgs, {} as RunCommandArgs];
const resultsAgree: [RunCommandResult, SchemaResult] = [{} as SchemaResult, {} as RunCommandResult];
void argsAgree;
void resultsAgree;

/**
 * The canonical run_command over a host's process runner. Made without one, it waits for the
 * workspace's runner (its `programs` says so: createWorkspace binds it to the built-in shell unless
 * told otherwise) and answers NOT_SUPPORTED where none is given. What a command changed goes in the change log and
 * the snapshot after the call (the files a shell runner reports; for programs, what `findChanges`,
 * the workspace's rescan, finds); the result then lists the files and gives a change_id.
 */
export function createRunCommandTool(runner?: ProcessRunner, findChanges?: FindExternalChanges): RunCommandTool {
  return runsPrograms(runCommandOver, runner, findChanges);
}

function runCommandOver(runner?: ProcessRunner, findChanges?: FindExternalChanges): RunCommandTool {
  const shell = runner?.kind === 'shell';
  return defineTool({
    name: 'run_command',
    title: 'Run command',
    description: shell
      ? "Run a bash command line in the workspace's built-in shell and return its exit code, stdout and stderr (each capped, keeping head and tail). " +
        'Its writes become one change you can undo. A nonzero exit or a timeout (timed_out: true, exit_code -1) is a normal result.' +
        (runner?.summary ? ` ${runner.summary}` : '')
      : 'Run a program in the workspace and return its exit code, stdout and stderr (each capped, keeping head and tail). ' +
        'A nonzero exit or a timeout (timed_out: true, exit_code -1) is a normal result. No shell is involved.',
    mutates: true,
    annotations: RUNS_PROGRAMS,
    schema: schemaFor(shell),
    resultSchema,
    async run(args, ctx) {
      if (!runner) {
        throw new ToolError(
          'NOT_SUPPORTED',
          'run_command is turned off in this workspace: it was made without a process runner',
          {
            hint: 'Use the file tools instead, or ask the host to provide a process runner.',
          },
        );
      }
      // A shell reads the line itself (argv says so, as a program runner would run it); the
      // splitter loads with the first string command for programs: a browser shell never needs it.
      const argv =
        typeof args.command !== 'string'
          ? args.command
          : shell
            ? args.command.trim() === ''
              ? []
              : ['sh', '-c', args.command]
            : (await import('../process/split-command.js')).splitCommand(args.command);
      if (argv.length === 0 || argv[0] === '') {
        throw new ToolError('INVALID_ARGUMENTS', 'the command is empty', {
          problems: [{ path: '/command', message: 'must name a program' }],
        });
      }
      const dir = await ctx.resolve(args.cwd ?? '.', 'read');
      if (!dir.stat)
        throw new ToolError('NOT_FOUND', `the working folder '${displayPath(dir.rel)}' does not exist`, {
          hint: 'Create it first, or pick another cwd.',
        });
      if (dir.stat.type !== 'dir')
        throw new ToolError('NOT_A_DIRECTORY', `the working folder '${displayPath(dir.rel)}' is not a folder`);
      const background = args.background === true;
      const seconds = args.timeout_seconds ?? (background ? undefined : DEFAULT_COMMAND_TIMEOUT_SECONDS);
      const request = {
        argv,
        ...(typeof args.command === 'string' ? { commandLine: args.command } : {}),
        cwd: dir.abs,
        cwdDisplay: displayPath(dir.rel),
        root: ctx.paths.toAbs(''),
        gitWritable: ctx.policy.allowGitWrites,
        env: args.env ?? {},
        apply: (steps: FileStep[], options?: { gitCommand?: boolean }) =>
          ctx.writer.apply(steps, { allOrNothing: false, ...(options?.gitCommand ? { gitCommand: true } : {}) }),
        timeoutMs: seconds === undefined ? null : seconds * 1000,
        // Only for a caller that listens: a program's output is read for progress only then.
        ...(ctx.onProgress
          ? { onProgress: (done: number, total?: number, message?: string) => ctx.progress(done, total, message) }
          : {}),
      };
      if (background) {
        if (!runner.start)
          throw new ToolError('NOT_SUPPORTED', 'this host cannot run background tasks', {
            hint: 'Run the command without background.',
          });
        // The call has answered by the time the task ends, so its writes become a change of their own then, as Node's tasks' do.
        const settle = async (files: NonNullable<CommandResult['files']>) => {
          if (files.length === 0) return undefined;
          await findChanges?.().catch(() => []);
          return recordKnownChanges(ctx, files).change_id;
        };
        return { ...(await runner.start({ ...request, settle })), cwd: request.cwdDisplay };
      }
      const { files, ...result } = await runner.run(request);
      // The shell writes only through request.apply, so it knows every file it changed; programs need the rescan.
      if (shell && files) return { ...result, ...recordKnownChanges(ctx, files) };
      return { ...result, ...(await recordExternalChanges(ctx, findChanges, files)) };
    },
  });
}

/** The canonical run_command, waiting for the workspace's runner (NOT_SUPPORTED in a workspace that has none). */
export const runCommand: RunCommandTool = createRunCommandTool();
