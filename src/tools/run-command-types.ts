import type { Schema, ToolAnnotations } from '../contract/index.js';
import type { ToolDefinition } from './schema/define.js';

/** What run_command takes (its schema, written out so each field is documented; run-command.ts checks they agree). */
export interface RunCommandArgs {
  /** the program and its arguments: an argv array, or one string split like a POSIX shell splits words (a bash line for the built-in shell) */
  command: string | string[];
  /** the working folder, relative to the workspace root (default: the workspace's current folder) */
  cwd?: string;
  /** kill the command and everything it started after this many seconds (default 30; background tasks: no limit) */
  timeout_seconds?: number;
  /** extra environment variables for this command */
  env?: Record<string, string>;
  /** start it as a background task and answer at once with its task_id */
  background?: boolean;
}

/** What run_command answers: a foreground command's outcome, or a background task's id and folder. */
export interface RunCommandResult {
  /** the exit status; -1 after a timeout */
  exit_code?: number;
  /** standard output, capped (head and tail kept) */
  stdout?: string;
  /** standard error, capped (head and tail kept) */
  stderr?: string;
  /** it was killed at its timeout */
  timed_out?: boolean;
  /** stdout or stderr was cut */
  truncated?: boolean;
  /** how long it ran */
  duration_ms?: number;
  /** what to know beyond the fields, such as the writes kept by a command that failed part-way */
  note?: string;
  /** files the program changed (the first 100) */
  changed_files?: string[];
  /** how many files changed, when more than are listed */
  changed_files_total?: number;
  /** the change-log entry of what it changed */
  change_id?: string;
  /** for `background: true`: the task to follow with task_output, task_wait, task_kill */
  task_id?: string;
  /** for `background: true`: the folder it runs in */
  cwd?: string;
}

/** The run_command tool, typed by its schemas. */
export interface RunCommandTool extends ToolDefinition<RunCommandArgs, RunCommandResult, 'run_command'> {
  /** the JSON Schema of its arguments */
  schema: Schema<RunCommandArgs>;
  /** the JSON Schema of a successful result */
  resultSchema: Schema<RunCommandResult>;
  /** a short human-readable name */
  title: string;
  /** what it does to its surroundings */
  annotations: ToolAnnotations;
}
