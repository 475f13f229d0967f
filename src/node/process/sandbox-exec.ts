import { allowListedEnv, programEnv } from './env.js';
import { bwrapPath, type SandboxMode, type SandboxPolicy } from './sandbox.js';
import { bwrapArgs, checkProgram, SANDBOX_HOME, SANDBOX_WORKSPACE, type ExtraMount } from './sandbox-bwrap.js';
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
export function execRequest(
  plan: ExecPlan,
  mode: SandboxMode,
  policy: SandboxPolicy,
  rest: Omit<SpawnRequest, 'argv' | 'cwd' | 'env'>,
): SpawnRequest {
  if (mode === 'none') {
    return {
      ...rest,
      argv: plan.argv,
      cwd: plan.hostCwd,
      env: programEnv(plan.parentEnv, plan.extra, plan.scrubEnv),
      displayName: plan.displayName,
    };
  }
  const layout = {
    hostRoot: plan.hostRoot,
    hostCwd: plan.hostCwd,
    extra: plan.mounts,
    policy,
    gitWritable: plan.gitWritable === true,
  };
  // bubblewrap's own environment is the command's: what /proc/1/environ shows inside is no more than the command has.
  const env = allowListedEnv(plan.parentEnv, SANDBOX_HOME, policy.env, plan.extra);
  checkProgram(layout, plan.argv[0]!, env.PATH, plan.displayName);
  return {
    ...rest,
    argv: [bwrapPath(policy.bwrap), ...bwrapArgs(layout, plan.argv)],
    cwd: plan.hostRoot,
    env,
    displayName: plan.displayName ?? plan.argv[0],
    contained: true,
  };
}

/** Map a host path under the workspace root to where the sandbox shows it (manifest placeholders). */
export function workspacePathInside(hostRoot: string, hostPath: string): string {
  if (hostPath === hostRoot) return SANDBOX_WORKSPACE;
  if (hostPath.startsWith(`${hostRoot}/`)) return `${SANDBOX_WORKSPACE}${hostPath.slice(hostRoot.length)}`;
  return hostPath;
}
