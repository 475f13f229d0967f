import { fsCodeOf } from '../fs/errors.js';
import type { ShellFs } from './overlay.js';

/** Thrown by `exit`; unwinds to the top of the command line (or of a `$(...)`). */
export class ExitSignal {
  constructor(readonly code: number) {}
}
/** Thrown by `return`; unwinds to the function (or sourced file) that is running. */
export class ReturnSignal {
  constructor(readonly code: number) {}
}
/** Thrown by `break N` and `continue N`; each loop it passes counts one level down. */
export class LoopSignal {
  constructor(
    readonly kind: 'break' | 'continue',
    public levels: number,
  ) {}
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
  /** arrays by name; an indexed array's keys are its indices as text */
  arrays: Map<string, Map<string, string>>;
  /** the arrays declared associative (`declare -A`) */
  assoc: Set<string>;
  functions: Map<string, import('./ast.js').FunctionCommand>;
  /** `set -e -u -x -o pipefail` */
  options: { errexit: boolean; nounset: boolean; xtrace: boolean; pipefail: boolean };
  /** `trap '...' EXIT` */
  traps: Map<string, string>;
  /** the variables `local` saved, one frame per running function */
  frames: Array<Map<string, { value?: string; array?: Map<string, string>; assoc: boolean }>>;
  /** the folder before the last `cd` (`cd -`) */
  oldCwd?: string;
  status: number;
  deadline: number;
  /** aborted: the command line was killed (a background task's kill); it stops at its next step */
  stop?: AbortSignal;
  /** where `npm` fetches packages from and keeps their tarballs (a host's settings) */
  packages?: PackageSettings;
  /** progress of a long command (`npm install`), for the call's progress listener */
  progress?: (done: number, total?: number, message?: string) => void;
  /** device files a host adds, by absolute path: output redirected to one goes to its writer (a task's notify file) */
  devices?: ReadonlyMap<string, (text: string) => void>;
  commands: CommandTable;
}

/** A host's settings for the shell's `npm`: the registry (else `.npmrc`, else the public one), a tarball cache, a fetch. */
export interface PackageSettings {
  /** the registry's address (http or https) */
  registry?: string;
  /** where fetched tarballs are kept (Cache Storage in a browser, memory in Node, when not given) */
  cache?: import('../packages/cache.js').TarballCache;
  /** the fetch to reach the registry with (the global one when not given) */
  fetch?: typeof fetch;
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
  /** a new shell process: the same files and folder, only `env` as its variables */
  child(env: Map<string, string>): ShellHandle;
  /** run a whole script as its own process would: `exit` and the EXIT trap end here */
  runMain(src: string, io: ShellIo): Promise<number>;
  /** a variable's value, as `$name` gives it */
  getVar(name: string): string | undefined;
  /** set a variable (an element of an array with `index`), honouring `local` */
  setVar(name: string, value: string, index?: string): void;
}

/** A command's standard streams: its input as text, and writers for its output and errors. */
export interface ShellIo {
  stdin: string;
  /** the standard input a `read` consumes line by line, shared by the commands of a loop */
  input?: { text: string; pos: number };
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
