import type { WorkspaceFs } from '../fs/types.js';
import type { CommandFn, PackageSettings } from '../shell/context.js';
import type { CommandRequest, CommandResult, ProcessRunner } from './process-runner.js';
import type { TaskRegistry } from './task-registry.js';

/** Options for the built-in shell. */
export interface ShellRunnerOptions {
  /** bytes kept of each of stdout and stderr (default 16 KiB, head and tail) */
  maxOutputBytes?: number;
  /** commands a host adds or replaces, such as `node` over a Web Worker */
  extraCommands?: Record<string, CommandFn>;
  /**
   * Where `background: true` commands become tasks (see `createShellTaskRegistry`); without it
   * run_command's background is NOT_SUPPORTED.
   */
  tasks?: TaskRegistry<string>;
  /** the shell's `npm`: registry (else `.npmrc`, else the public one), tarball cache, fetch */
  packages?: PackageSettings;
}

/** The commands the shell has, for the tool's description and the agent's system prompt. */
export const SHELL_SUMMARY =
  'Commands: ls cat head tail grep egrep fgrep sed awk jq find wc sort uniq cut tr rev diff mkdir rm rmdir mv cp touch tee ' +
  'echo printf xargs test [ basename dirname pwd cd env export seq sleep true false nl which type whoami uname; ' +
  'git on the workspace repository (init status diff log show add rm mv commit checkout switch restore branch stash reset grep blame; no network); ' +
  'node FILE.js / node -e where the host offers it. ' +
  'npm install [NAME[@RANGE]...] / ci / uninstall / ls against the npm registry (install scripts are never run). ' +
  'No other network, no other programs; symbolic links are not followed.';

const quote = (word: string) => (/^[A-Za-z0-9_./=:,+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`);

/**
 * A ProcessRunner over Sandpit's own bash-compatible shell, for hosts that cannot start programs
 * (a browser page or worker). The shell's code loads on the first command, so a workspace that
 * never runs one does not pay for it. `root` is the backend folder that is the workspace root.
 */
export function createShellRunner(fs: WorkspaceFs, root = '/', options: ShellRunnerOptions = {}): ProcessRunner {
  const { tasks } = options;
  const commandOf = (request: CommandRequest) => request.commandLine ?? request.argv.map(quote).join(' ');
  return {
    ...(tasks
      ? {
          // The task code loads with the first background command, as the shell loads with the first command.
          start: async (request: CommandRequest) => ({
            task_id: (await import('./shell-tasks.js')).startShellTask(
              tasks,
              { fs, root, command: commandOf(request), ...pick(options) },
              request,
            ),
          }),
        }
      : {}),
    kind: 'shell',
    summary: SHELL_SUMMARY,
    async syncPackages(folders, apply) {
      const { syncNodeModules } = await import('../shell/commands/npm/sync.js');
      return syncNodeModules(fs, root, folders, options.packages ?? {}, apply);
    },
    async run(request: CommandRequest): Promise<CommandResult> {
      const { runShell } = await import('../shell/run.js');
      const apply = request.apply;
      if (!apply) throw new Error("the shell runs inside run_command, which hands it the workspace's write path");
      const result = await runShell({
        fs,
        root,
        command: commandOf(request),
        cwd: request.cwdDisplay,
        env: request.env,
        timeoutMs: request.timeoutMs,
        apply,
        ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
        ...(options.extraCommands ? { extraCommands: options.extraCommands } : {}),
        ...(options.packages ? { packages: options.packages } : {}),
        ...(request.onProgress ? { onProgress: request.onProgress } : {}),
        ...(request.shellSession ? { session: request.shellSession } : {}),
      });
      const { applied, killed: _killed, ...rest } = result;
      const fields = { ...rest, files: applied };
      const failed = result.exit_code !== 0 && applied.length > 0;
      return failed
        ? {
            ...fields,
            note: `the command ${result.timed_out ? 'timed out' : `failed (exit ${result.exit_code})`}; the writes it made before that were kept, as in a real shell (see changed_files; undo reverts them)`,
          }
        : fields;
    },
  };
}

const pick = (options: ShellRunnerOptions) => ({
  ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
  ...(options.extraCommands ? { extraCommands: options.extraCommands } : {}),
  ...(options.packages ? { packages: options.packages } : {}),
});
