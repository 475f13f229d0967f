import { mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandRequest, CommandResult, CommandSession } from '../../process/process-runner.js';

/** Where a session's state folder shows inside the OS sandbox (a fresh /tmp there, so no host path). */
export const SESSION_INSIDE = '/tmp/.sandpit-session';

/**
 * What each line runs before it, at the top level of its bash: define the save, arm it as the EXIT
 * trap, restore the session (folder, variables exported or not, arrays, functions, aliases, umask,
 * shopt and set options) from the state file. The save uses bash builtins only, so whatever a line
 * did to PATH cannot break it (`command -p mv` finds mv on the default path); it runs when the
 * line's bash ends by any way but a kill, so a line killed at its timeout leaves the state from
 * before it. Options come last in the state, so a `set -e` the model turned on applies to its
 * lines, not to the restore; `set -x` is turned on inside the line's eval, so no line of ours is traced.
 */
export const SESSION_PRELUDE = `__sandpit_x= __sandpit_flags=
__sandpit_save() {
  local __sandpit_n
  [[ $__sandpit_flags ]] || __sandpit_flags=$-
  local -
  builtin set +x +e +u
  {
    builtin printf 'builtin cd -- %q 2>/dev/null\\n' "$PWD"
    while IFS= builtin read -r __sandpit_n; do
      case $__sandpit_n in
        BASH*|__sandpit_*|EUID|PPID|UID|SHELLOPTS|GROUPS|FUNCNAME|RANDOM|SRANDOM|SECONDS|LINENO|HISTCMD) continue ;;
        EPOCHREALTIME|EPOCHSECONDS|PIPESTATUS|DIRSTACK|COMP_WORDBREAKS|_|SHLVL|OPTIND|OPTERR|PWD) continue ;;
      esac
      builtin declare -p "$__sandpit_n" 2>/dev/null
    done <<< "$(builtin compgen -v)"
    while IFS= builtin read -r __sandpit_n; do
      [[ $__sandpit_n == *' '__sandpit_* ]] || builtin declare -f "\${__sandpit_n##* }"
    done <<< "$(builtin declare -F)"
    builtin alias -p
    builtin umask -p
    builtin shopt -p
    builtin set +o
    [[ $__sandpit_flags == *e* ]] && builtin printf 'set -e\\n'
    [[ $__sandpit_flags == *u* ]] && builtin printf 'set -u\\n'
    [[ $__sandpit_flags == *x* ]] && builtin printf '__sandpit_x=1\\n'
    :
  } > "$__sandpit_dir/state.next" 2>/dev/null &&
    builtin command -p mv -f -- "$__sandpit_dir/state.next" "$__sandpit_dir/state"
}
trap '{ __sandpit_flags=$-; builtin set +x; __sandpit_save; } 2>/dev/null' EXIT
if [ -f "$__sandpit_dir/state" ]; then . "$__sandpit_dir/state"; fi
`;

/**
 * The script, run as `bash -c SESSION_SCRIPT bash SESSION_PRELUDE STATE_DIR LINE`: one line, so the
 * model's line, evaluated in the shell itself (`cd`, `export` and functions take effect there),
 * gets bash's messages with "line 1" as `bash -c` gives them. Its status is the shell's: the EXIT
 * trap keeps it.
 */
export const SESSION_SCRIPT = `__sandpit_dir=$2 __sandpit_line=$3; builtin eval "$1"; set --; builtin eval "\${__sandpit_x:+set -x; }$__sandpit_line"`;

// State folders this process made, removed when it exits (a session not closed leaves nothing behind).
const folders = new Set<string>();
let hooked = false;
function removeAtExit(dir: string): void {
  folders.add(dir);
  if (hooked) return;
  hooked = true;
  process.once('exit', () => {
    for (const d of folders) rmSync(d, { recursive: true, force: true });
  });
}

/**
 * A bash session over one-shot processes: each line runs as its own sandboxed bash (so the
 * timeout, the process-group kill, the sandbox and the rescan after it are run_command's own),
 * and the session's state travels through a private host folder between them. `start` runs a
 * request with the state folder mounted writable (at SESSION_INSIDE in the OS sandbox) and gives
 * the path the command sees. Lines run one at a time, in the order they came.
 */
export function replayedBashSession(
  start: (request: CommandRequest, state: { host: string }) => Promise<CommandResult>,
): CommandSession {
  let dir: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(job: () => Promise<T>): Promise<T> => {
    const next = queue.then(job, job);
    queue = next.catch(() => {});
    return next;
  };
  return {
    run: (request) =>
      serial(() => {
        if (!dir) {
          dir = mkdtempSync(join(tmpdir(), 'sandpit-bash-'));
          removeAtExit(dir);
        }
        return start(request, { host: dir });
      }),
    restart: () =>
      serial(async () => {
        if (dir) await rm(join(dir, 'state'), { force: true });
      }),
    close: () =>
      serial(async () => {
        if (!dir) return;
        folders.delete(dir);
        await rm(dir, { recursive: true, force: true });
        dir = null;
      }),
  };
}

/** The argv of one session line, given where the command sees the state folder. */
export function sessionArgv(request: CommandRequest, stateInside: string): string[] {
  const line = request.commandLine ?? request.argv.join(' ');
  return ['bash', '-c', SESSION_SCRIPT, 'bash', SESSION_PRELUDE, stateInside, line];
}
