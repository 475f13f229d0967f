import type { FileStep } from '../workspace/file-writer.js';
import type { ShellSession } from '../shell/run.js';
/**
 * What run_command needs from a host that can run programs. Node supplies one (sandpit/node);
 * a browser playground can plug in its own (a remote sandbox, an emulator). Browser-safe: types only.
 */

/** One command, already split into argv and with its working folder confined to the workspace. */
export interface CommandRequest {
  /** the program and its arguments; no shell interprets them */
  argv: string[];
  /** the command line exactly as the call gave it, when it gave a string (a shell runner reads this) */
  commandLine?: string;
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
  /** the policy lets tools write under `.git` (allowGitWrites); without it an OS sandbox mounts the workspace's `.git` read-only */
  gitWritable?: boolean;
  /** the workspace's one write path, for a runner that writes files itself (the browser shell) */
  apply?: (steps: FileStep[], options?: { gitCommand?: boolean }) => Promise<unknown>;
  /** progress of a long command (an install), forwarded to the call's progress listener */
  onProgress?: (done: number, total?: number, message?: string) => void;
  /**
   * For a background command of a runner that writes through `apply` (the browser shell): once it
   * has ended, log the files it changed as one change and snapshot them; resolves to that
   * change's id (undefined when it changed nothing). The runner awaits it before the task counts as ended.
   */
  settle?: (files: NonNullable<CommandResult['files']>) => Promise<string | undefined>;
  /**
   * For the built-in shell: the session the line runs in (it starts from the state the last line
   * left there and leaves its own). The vendors' bash and shell tools pass one; see CommandSession.
   */
  shellSession?: ShellSession;
}

/** The outcome of a finished command. A nonzero exit or a timeout is still a result, not an error. */
export interface CommandResult {
  /** the exit status; -1 after a timeout */
  exit_code: number;
  /** standard output, capped (head and tail kept) */
  stdout: string;
  /** standard error, capped (head and tail kept) */
  stderr: string;
  /** the command was killed at its timeout */
  timed_out: boolean;
  /** stdout or stderr was cut */
  truncated: boolean;
  /** how long it ran */
  duration_ms: number;
  /** what the model should know beyond the fields (writes kept by a command that failed part-way) */
  note?: string;
  /**
   * The files the runner itself changed, with their text before and after, when it knows them (the
   * browser shell does): the change log then shows real diffs. Not part of the tool's result.
   */
  files?: Array<{
    /** the file's root-relative path */
    path: string;
    /** its text before (null: absent; undefined: not text) */
    before: string | null | undefined;
    /** its text after (null: absent; undefined: not text) */
    after: string | null | undefined;
  }>;
}

/**
 * Command lines that share a shell's state as one bash session does: the working folder, variables
 * (exported or not), functions, aliases and options carry from one line to the next until
 * `restart`. The vendors' bash and shell tools run over one.
 */
export interface CommandSession {
  /** Run one command line in the session (its `commandLine`, else its argv as one line). */
  run(request: CommandRequest): Promise<CommandResult>;
  /** Forget the session's state: the next line starts as a new shell would. */
  restart(): Promise<void>;
  /** Release what the session holds; a later `run` starts afresh. */
  close(): Promise<void>;
}

/** A host's way to run commands. Throw a ToolError (NOT_FOUND, PERMISSION_DENIED) when one cannot start. */
export interface ProcessRunner {
  /** Run one command to its end (or its timeout) and give its outcome. */
  run(request: CommandRequest): Promise<CommandResult>;
  /**
   * 'shell' when the runner reads `commandLine` itself as a shell does (the browser's shell), so the
   * tool tells the model that pipes and globs work; absent means argv runs with no shell.
   */
  readonly kind?: 'programs' | 'shell';
  /** What the runner offers, for the tool's description (the browser shell lists its commands). */
  readonly summary?: string;
  /**
   * Bring each folder's node_modules in line with its package-lock.json from the tarball cache,
   * writing through `apply`: undo and restore_snapshot call it for the locks they put back (the
   * built-in shell has it, as the owner of `npm`). Gives a line per folder it changed; throws
   * (with nothing written) when a package is not in the cache.
   */
  syncPackages?(folders: string[], apply: (steps: FileStep[]) => Promise<unknown>): Promise<string[]>;
  /**
   * Open a shell session over this runner (see CommandSession; Node's runner has it). Without it,
   * a 'shell' runner is handed `shellSession` with each line (the built-in shell keeps its state
   * there), and a runner of programs starts each line afresh.
   */
  openSession?(): CommandSession;
  /** Start a command as a background task; without it, `background: true` is NOT_SUPPORTED. */
  start?(request: CommandRequest): Promise<{
    /** the background task's id */
    task_id: string;
  }>;
}
