import { accessSync, constants, readdirSync, readlinkSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, posix } from 'node:path';
import { relativeBelow } from './below.js';
import { DEFAULT_HIDDEN_IN_HOME, type SandboxPolicy } from './sandbox.js';
import { startError } from './spawn.js';

/** Where the workspace appears inside the sandbox; `pwd` prints it instead of the host folder. */
export const SANDBOX_WORKSPACE = '/workspace';
/** HOME inside the sandbox: private, writable, gone when the command ends. */
export const SANDBOX_HOME = '/tmp/home';

/** A host folder a command needs besides the workspace (a manifest's tool folder, its scratch), at the same path inside. */
export interface ExtraMount {
  host: string;
  writable: boolean;
  /** where it shows inside (default: the same path), so a private folder shows no host path */
  inside?: string;
}

/** One command's sandbox: the workspace root on the host, the working folder below it, and the rest. */
export interface SandboxLayout {
  hostRoot: string;
  /** the working folder, host path (inside hostRoot, or an extra mount) */
  hostCwd: string;
  extra?: ExtraMount[];
  policy: SandboxPolicy;
  /**
   * Host paths inside the workspace mounted read-only over the writable workspace (see
   * guardRepositories): its repositories and `.sandpit`, whose hooks, config and history the
   * host trusts.
   */
  readOnly?: string[];
}

function readOnlyInside(layout: SandboxLayout): string[] {
  const args: string[] = [];
  for (const host of layout.readOnly ?? []) {
    const rel = relativeBelow(layout.hostRoot, host);
    if (rel) args.push('--ro-bind-try', host, `${SANDBOX_WORKSPACE}/${rel}`);
  }
  return args;
}

// Made fresh inside, or where the workspace goes: never bound from the host.
const OWN_TOP = new Set(['proc', 'dev', 'tmp', SANDBOX_WORKSPACE.slice(1)]);
let topLevel: string[] | null = null;

// The host's top level, read-only: every folder bound, every link (bin -> usr/bin) recreated.
// The root itself cannot be bound read-only, since /workspace must be created beside the rest.
function topLevelArgs(): string[] {
  if (topLevel) return topLevel;
  const args: string[] = [];
  for (const entry of readdirSync('/', { withFileTypes: true })) {
    if (OWN_TOP.has(entry.name)) continue;
    const path = `/${entry.name}`;
    if (entry.isSymbolicLink()) args.push('--symlink', readlinkSync(path), path);
    else args.push('--ro-bind-try', path, path);
  }
  return (topLevel = args);
}

function hiddenPaths(policy: SandboxPolicy): string[] {
  const home = homedir();
  return [...DEFAULT_HIDDEN_IN_HOME.map((p) => join(home, p)), ...(policy.hide ?? [])];
}

/** The working folder as the command sees it. */
export function insideCwd(layout: SandboxLayout): string {
  const rel = relativeBelow(layout.hostRoot, layout.hostCwd);
  if (rel === null) return layout.hostCwd;
  return rel === '' ? SANDBOX_WORKSPACE : posix.join(SANDBOX_WORKSPACE, rel);
}

/**
 * bubblewrap's arguments for one command: the host read-only (credential stores absent), a new
 * /proc, /dev and /tmp, the workspace read-write at /workspace (its repositories and `.sandpit`
 * read-only), every namespace new (the network too unless the policy shares it), and the sandbox
 * dying with its parent. The command follows them on bubblewrap's own command line (it reads
 * options only from `--args`).
 */
export function bwrapOptions(layout: SandboxLayout): string[] {
  const args = [...topLevelArgs(), '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '--dir', SANDBOX_HOME];
  for (const path of hiddenPaths(layout.policy)) {
    const stat = statOrNull(path);
    if (stat?.isDirectory()) args.push('--tmpfs', path);
    else if (stat) args.push('--ro-bind', '/dev/null', path);
  }
  for (const mount of layout.extra ?? [])
    args.push(mount.writable ? '--bind-try' : '--ro-bind-try', mount.host, mount.inside ?? mount.host);
  args.push('--bind', layout.hostRoot, SANDBOX_WORKSPACE, ...readOnlyInside(layout), '--chdir', insideCwd(layout));
  args.push('--unshare-all', ...(layout.policy.network ? ['--share-net'] : []), '--die-with-parent', '--new-session');
  return args;
}

/**
 * Check, from the host, that the program exists and may run inside the sandbox, so a typo is
 * NOT_FOUND as it is without the sandbox rather than bubblewrap's own complaint.
 */
export function checkProgram(
  layout: SandboxLayout,
  program: string,
  path: string | undefined,
  displayName = program,
): void {
  const candidates = program.includes('/')
    ? [posix.resolve(insideCwd(layout), program)]
    : (path ?? '').split(':').map((dir) => posix.resolve(insideCwd(layout), dir || '.', program));
  let denied = false;
  for (const inside of candidates) {
    const host = toHost(layout, inside);
    if (host === null) continue;
    const stat = statOrNull(host);
    if (!stat || stat.isDirectory()) continue;
    try {
      accessSync(host, constants.X_OK);
      return;
    } catch {
      denied = true;
    }
  }
  throw startError({ code: denied ? 'EACCES' : 'ENOENT' }, displayName);
}

// Where a path inside the sandbox lives on the host, or null when it exists only inside (or nowhere).
function toHost(layout: SandboxLayout, inside: string): string | null {
  if (inside === SANDBOX_WORKSPACE || inside.startsWith(`${SANDBOX_WORKSPACE}/`))
    return join(layout.hostRoot, inside.slice(SANDBOX_WORKSPACE.length));
  for (const m of layout.extra ?? []) {
    const at = m.inside ?? m.host;
    if (inside === at || inside.startsWith(`${at}/`)) return m.host + inside.slice(at.length);
  }
  if (inside === '/tmp' || inside.startsWith('/tmp/')) return null;
  if (hiddenPaths(layout.policy).some((h) => inside === h || inside.startsWith(`${h}/`))) return null;
  return inside;
}

function statOrNull(path: string) {
  try {
    return statSync(path);
  } catch {
    return null;
  }
}
