import { fsCodeOf } from '../fs/errors.js';
import type { ShellFs } from './overlay.js';

/** Thrown by `exit`; unwinds to the top of the command line (or of a `$(...)`). */
export class ExitSignal {
  constructor(readonly code: number) {}
}
/** Thrown when the command's time is up; the runner reports `timed_out`. */
export class TimeoutSignal {}

/** The running shell's state: files, folder, variables, last status, time limit, commands. */
export interface ShellState {
  fs: ShellFs;
  cwd: string;
  vars: Map<string, string>;
  exported: Set<string>;
  args: string[];
  status: number;
  deadline: number;
  /** aborted: the command line was killed (a background task's kill); it stops at its next step */
  stop?: AbortSignal;
  /** device files a host adds, by absolute path: output redirected to one goes to its writer (a task's notify file) */
  devices?: ReadonlyMap<string, (text: string) => void>;
  commands: CommandTable;
}

/** What a command may ask of the shell that runs it. */
export interface ShellHandle {
  readonly state: ShellState;
  /** throws TimeoutSignal once the command line's time is up or it was killed */
  checkTime(): void;
  /** a subshell: same files, own folder and variables */
  sub(): ShellHandle;
  /** parse and run a command line, as `sh -c` does */
  runLine(src: string, io: ShellIo): Promise<number>;
}

/** A command's standard streams: its input as text, and writers for its output and errors. */
export interface ShellIo {
  stdin: string;
  out(text: string): void;
  err(text: string): void;
}

/** What a command gets when it runs. */
export interface CommandContext extends ShellIo {
  name: string;
  args: string[];
  /** the exported variables plus this command's own assignments */
  env: Map<string, string>;
  shell: ShellHandle;
}

/** A command: runs to completion and gives its exit status. */
export type CommandFn = (ctx: CommandContext) => Promise<number>;
export type CommandTable = Map<string, CommandFn>;

const MESSAGES: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EEXIST: 'File exists',
  ENOTEMPTY: 'Directory not empty',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EBUSY: 'Device or resource busy',
  ELOOP: 'is a symbolic link, which this shell does not follow',
};

/** The text a Unix tool prints for a filesystem error (never a host path: the codes carry none). */
export function errorText(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  const code = fsCodeOf(error);
  return (
    MESSAGES[code] ??
    (error instanceof Error && !(error as { code?: unknown }).code ? error.message : 'Input/output error')
  );
}

/** A command's complaint about its arguments; printed as `name: message`, status 1 (or `status`). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly status = 1,
  ) {
    super(message);
  }
}
