import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { parse, resolve, sep } from 'node:path';
import { UsageError } from './args.js';

/** What a refused root is, in words that name no host path (a model may read the message). */
export type BroadRootKind =
  | "the file system's root"
  | 'the home folder'
  | 'a folder above the home folder'
  | 'a system folder';

// The machine's own folders, refused with everything below them: nobody's project lives there.
const SYSTEM_TREES = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/proc',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var',
];
// Folders that hold projects a level or more down (/var/www/site, /home/alice/app, /opt/tool): refused only themselves.
const SYSTEM_ONLY = [
  '/var',
  '/opt',
  '/srv',
  '/tmp',
  '/home',
  '/Users',
  '/root',
  '/mnt',
  '/media',
  '/Volumes',
  '/Applications',
  '/private',
  '/snap',
];
const WINDOWS_TREES = ['windows', 'program files', 'program files (x86)', 'programdata'];

/** The folder with links resolved (`/bin` may be a link to `/usr/bin`); as given when it cannot be. */
function real(folder: string): string {
  try {
    return realpathSync.native(folder);
  } catch {
    return resolve(folder);
  }
}

const inside = (folder: string, tree: string) => folder === tree || folder.startsWith(tree + sep);

/**
 * Why `folder` is too broad to be a workspace root, or null when it is a fine one: the file
 * system's root (or a drive's), the home folder or a folder above it, or a system folder. Every
 * write tool would reach the whole of it, and an MCP client that starts a server in its own
 * working folder (often `/`) with `--root .` would otherwise hand a model the machine.
 */
export function broadRootKind(folder: string, home = homedir()): BroadRootKind | null {
  const path = real(folder);
  if (parse(path).root === path) return "the file system's root";
  const homeReal = home ? real(home) : '';
  if (homeReal && path === homeReal) return 'the home folder';
  if (homeReal && inside(homeReal, path)) return 'a folder above the home folder';
  if (sep === '\\') {
    const top = path.slice(parse(path).root.length).split('\\')[0]!.toLowerCase();
    return WINDOWS_TREES.includes(top) ? 'a system folder' : null;
  }
  if (SYSTEM_TREES.some((tree) => inside(path, tree))) return 'a system folder';
  if (SYSTEM_ONLY.includes(path)) return 'a system folder';
  return null;
}

/** The flag that lets a broad root through. */
export const ALLOW_BROAD_ROOT = 'allow-broad-root';

/** A root refused for being broad; the CLI prints it as a usage error (exit 2). */
export class BroadRootError extends UsageError {
  constructor(
    readonly kind: BroadRootKind,
    option: string,
  ) {
    super(
      `${option} names ${kind}, which would put every file there in reach of the tools. ` +
        `Point it at a project folder by its absolute path (${option} /absolute/path/to/project); ` +
        `an MCP client starts servers in its own working folder, often /, so '.' is rarely the project. ` +
        `To serve this folder anyway, add --${ALLOW_BROAD_ROOT}.`,
    );
    this.name = 'BroadRootError';
  }
}

/** Refuse a broad root unless the person said --allow-broad-root. */
export function refuseBroadRoot(folder: string, option: string, allowed: boolean): void {
  if (allowed) return;
  const kind = broadRootKind(folder);
  if (kind) throw new BroadRootError(kind, option);
}
