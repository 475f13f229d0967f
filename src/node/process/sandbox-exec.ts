import { homedir } from 'node:os';
import { dirname } from 'node:path';
import { allowListedEnv, programEnv, sandboxPath } from './env.js';
import { bwrapPath, type SandboxMode, type SandboxPolicy } from './sandbox.js';
import {
  bwrapOptions,
  checkProgram,
  SANDBOX_HOME,
  SANDBOX_WORKSPACE,
  type ExtraMount,
  type SandboxLayout,
} from './sandbox-bwrap.js';
import { DISARMED, guardRepositories } from './sandbox-git-guard.js';
import type { SpawnRequest } from './spawn.js';

/** What a command needs, before it is known whether it runs in the OS sandbox. */
export interface ExecPlan {
  argv: string[];
  /** the workspace root and the working folder, host paths */
  hostRoot: string;
  hostCwd: string;
  /** variables the call or the manifest adds */
  extra: Record<string, string>;
  parentEnv: NodeJS.ProcessEnv;
  /** names withheld without the sandbox besides the credential-like ones */
  scrubEnv?: readonly string[];
  /** host folders the command also needs (a manifest's tool folder, its scratch) */
  mounts?: ExtraMount[];
  displayName?: string;
  /** the policy lets tools write under `.git`, so the sandbox leaves the workspace's `.git` writable too */
  gitWritable?: boolean;
}

/** The process to spawn for a plan (mode from chooseSandbox): bubblewrap around the command in the OS sandbox, the command itself without. */
export async function execRequest(
  plan: ExecPlan,
  mode: SandboxMode,
  policy: SandboxPolicy,
  rest: Omit<SpawnRequest, 'argv' | 'cwd' | 'env'>,
): Promise<SpawnRequest> {
  if (mode === 'none') {
    return {
      ...rest,
      argv: plan.argv,
      cwd: plan.hostCwd,
      env: programEnv(plan.parentEnv, plan.extra, plan.scrubEnv),
      displayName: plan.displayName,
    };
  }
  const layout: SandboxLayout = { hostRoot: plan.hostRoot, hostCwd: plan.hostCwd, extra: plan.mounts, policy };
  // bubblewrap's own environment is the command's: what /proc/1/environ shows inside is no more than the command has.
  const env = allowListedEnv(plan.parentEnv, SANDBOX_HOME, policy.env, plan.extra);
  if (!policy.env?.includes('PATH') && plan.extra.PATH === undefined)
    env.PATH = sandboxPath(env.PATH, [homedir(), dirname(plan.hostRoot), process.cwd()]);
  checkProgram(layout, plan.argv[0]!, env.PATH, plan.displayName);
  const guard = await guardRepositories(plan.hostRoot, plan.gitWritable === true);
  layout.readOnly = guard.readOnly;
  return {
    ...rest,
    // Read from a descriptor, so /proc/1/cmdline inside (bubblewrap's own) shows no mount and no host path.
    argv: [bwrapPath(policy.bwrap), '--args', '3', '--', ...plan.argv],
    fd3: `${bwrapOptions(layout).join('\0')}\0`,
    cwd: plan.hostRoot,
    env,
    displayName: plan.displayName ?? plan.argv[0],
    contained: true,
    finish: once(async () => {
      const disarmed = await guard.finish();
      if (disarmed.length === 0) return undefined;
      return (
        `Disarmed the git repositories this command made (${disarmed.join(', ')}: a .git renamed .git${DISARMED}, HEAD renamed HEAD${DISARMED}): ` +
        'commands may not leave repositories in the workspace, since the host would run their hooks and config.'
      );
    }),
  };
}

// A program that fails to start may report it twice; its guard is finished once.
function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | null = null;
  return () => (result ??= run());
}

/** Map a host path under the workspace root to where the sandbox shows it (manifest placeholders). */
export function workspacePathInside(hostRoot: string, hostPath: string): string {
  if (hostPath === hostRoot) return SANDBOX_WORKSPACE;
  if (hostPath.startsWith(`${hostRoot}/`)) return `${SANDBOX_WORKSPACE}${hostPath.slice(hostRoot.length)}`;
  return hostPath;
}
