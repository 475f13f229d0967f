import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { ToolError } from '../../contract/index.js';
import { nodeBuiltin } from '../../fs/node-builtin.js';

// child_process loads with the first probe, not with this module: a server that runs no command never pays for it.
const childProcess = () => nodeBuiltin<typeof import('node:child_process')>('node:child_process');

/** Where commands run: `os` inside bubblewrap (Linux), `none` as plain child processes. */
export type SandboxMode = 'os' | 'none';

/** What the OS sandbox lets a command do beyond its workspace. */
export interface SandboxPolicy {
  /** reach the network (default false: a new, empty network namespace) */
  network?: boolean;
  /** more variable names passed from the host environment (PATH, LANG and TERM always are; HOME points into the sandbox) */
  env?: string[];
  /** host paths made absent inside the sandbox (a folder shows empty, a file cannot be read); added to the defaults below */
  hide?: string[];
  /** the bubblewrap program (default `bwrap`, looked up on PATH) */
  bwrap?: string;
}

/** The sandbox a runner uses, once it is known whether bubblewrap works here. */
export interface SandboxChoice {
  mode: SandboxMode;
  /** whether `os` was asked for (rather than picked as the default): then a missing bwrap is NOT_SUPPORTED */
  explicit: boolean;
  policy: SandboxPolicy;
}

/** Credential stores under the user's home that no sandboxed command needs to read. */
export const DEFAULT_HIDDEN_IN_HOME = [
  '.ssh',
  '.gnupg',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.git-credentials',
  '.config/gh',
  '.config/gcloud',
  '.cargo/credentials',
  '.cargo/credentials.toml',
];

const probes = new Map<string, Promise<string | null>>();

/**
 * Whether bubblewrap can build this sandbox here: null when it can, else why not. Asked once per
 * binary and process, since the answer costs a process start.
 */
export function bwrapProblem(bwrap = 'bwrap'): Promise<string | null> {
  let probe = probes.get(bwrap);
  if (!probe) {
    probe =
      process.platform !== 'linux'
        ? Promise.resolve(`the OS sandbox needs Linux (this is ${process.platform})`)
        : runProbe(bwrapPath(bwrap));
    probes.set(bwrap, probe);
  }
  return probe;
}

/**
 * bubblewrap as an absolute path, found on Sandpit's own PATH: the command's PATH (which the
 * sandbox passes on) need not contain it.
 */
export function bwrapPath(bwrap = 'bwrap'): string {
  if (bwrap.includes('/')) return bwrap;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!isAbsolute(dir)) continue;
    try {
      accessSync(join(dir, bwrap), constants.X_OK);
      return join(dir, bwrap);
    } catch {
      // not in this folder
    }
  }
  return bwrap;
}

function runProbe(bwrap: string): Promise<string | null> {
  return new Promise((resolve) => {
    const child = childProcess().spawn(
      bwrap,
      [
        '--ro-bind',
        '/',
        '/',
        '--proc',
        '/proc',
        '--dev',
        '/dev',
        '--unshare-all',
        '--die-with-parent',
        '--new-session',
        'true',
      ],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', (error) =>
      resolve(
        (error as { code?: string }).code === 'ENOENT'
          ? 'bubblewrap (bwrap) is not installed'
          : `bubblewrap cannot start (${(error as { code?: string }).code ?? 'unknown error'})`,
      ),
    );
    child.once('close', (code) =>
      resolve(code === 0 ? null : `bubblewrap cannot create namespaces here (${firstLine(stderr) || `exit ${code}`})`),
    );
  });
}

// bwrap's own message names no host path of ours, but keep it short.
function firstLine(text: string): string {
  return text
    .split('\n')[0]!
    .replace(/^bwrap: /, '')
    .slice(0, 120);
}

/**
 * Decide the mode for a runner: `none` when asked; `os` when asked (NOT_SUPPORTED, with a hint, if
 * bubblewrap cannot work here: never a silent fallback); by default `os` where bubblewrap works.
 */
export async function chooseSandbox(choice: SandboxChoice | undefined): Promise<SandboxMode> {
  if (!choice) return 'none';
  if (choice.mode === 'none') return 'none';
  const problem = await bwrapProblem(choice.policy.bwrap);
  if (problem === null) return 'os';
  if (!choice.explicit) return 'none';
  throw new ToolError('NOT_SUPPORTED', `commands cannot run in the OS sandbox here: ${problem}`, {
    hint: "Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), or open the workspace with sandbox: 'none' (CLI: --sandbox none) to run commands without it.",
  });
}

/** The choice for a sandbox option as a workspace takes it (undefined: the default, `os` where it works). */
export function sandboxChoice(mode: SandboxMode | undefined, policy: SandboxPolicy = {}): SandboxChoice {
  return { mode: mode ?? 'os', explicit: mode !== undefined, policy };
}
