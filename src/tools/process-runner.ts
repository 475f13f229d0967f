/**
 * What run_command needs from a host that can run programs. Node supplies one (sandpit/node);
 * a browser playground can plug in its own (a remote sandbox, an emulator). Browser-safe: types only.
 */

/** One command, already split into argv and with its working folder confined to the workspace. */
export interface CommandRequest {
  /** the program and its arguments; no shell interprets them */
  argv: string[];
  /** the working folder as a backend path (for the node backend, a host folder) */
  cwd: string;
  /** the working folder as the model named it, root-relative ('.' is the root) */
  cwdDisplay: string;
  /** the workspace root as a backend path (a sandbox mounts it; the host folder for the node backend) */
  root?: string;
  /** variables the call adds on top of the host's (already scrubbed) environment */
  env: Record<string, string>;
  /** null means no limit */
  timeoutMs: number | null;
}

/** The outcome of a finished command. A nonzero exit or a timeout is still a result, not an error. */
export interface CommandResult {
  exit_code: number;
  stdout: string;
  stderr: string;
  timed_out: boolean;
  truncated: boolean;
  duration_ms: number;
}

/** A host's way to run commands. Throw a ToolError (NOT_FOUND, PERMISSION_DENIED) when one cannot start. */
export interface ProcessRunner {
  run(request: CommandRequest): Promise<CommandResult>;
  /** Start a command as a background task; without it, `background: true` is NOT_SUPPORTED. */
  start?(request: CommandRequest): Promise<{ task_id: string }>;
}
