import type { Dirent } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { foldsToGitDir } from '../../workspace/git-names.js';

/**
 * Keeps a sandboxed command from leaving a git repository the host's git would execute from
 * (hooks, `core.fsmonitor`, `core.pager`, filters: all code its owner runs). Before the command:
 * every repository already in the workspace is found and mounted read-only, and an empty
 * read-only placeholder stands where the top's `.git` or `.sandpit` is missing (an empty `.git`
 * folder is no repository to git, which looks further up). After it: any `.git` entry or bare
 * repository it made is disarmed (renamed, never deleted) and named in the result's note.
 */
export interface RepositoryGuard {
  /** host paths to mount read-only over themselves */
  readOnly: string[];
  /** run once the command has ended: disarm what it made, drop the placeholders; what it disarmed, root-relative */
  finish(): Promise<string[]>;
}

/** Suffix of a disarmed repository's `.git` and of its `HEAD`. */
export const DISARMED = '.disarmed';

// Placeholders this process made, by host path, with how many running commands use each.
const placeholders = new Map<string, number>();
// Per host path, the last placeholder step queued: a look-and-make and a drop-and-remove never
// interleave, so one command's removal cannot land between another's look and its mount.
const placeholderTurns = new Map<string, Promise<unknown>>();

function inTurn<T>(host: string, step: () => Promise<T>): Promise<T> {
  const mine = (placeholderTurns.get(host) ?? Promise.resolve()).then(step);
  const settled = mine.catch(() => {});
  placeholderTurns.set(host, settled);
  void settled.then(() => {
    if (placeholderTurns.get(host) === settled) placeholderTurns.delete(host);
  });
  return mine;
}

/**
 * Guard one command in `hostRoot`. With `gitWritable` (the allowGitWrites policy) only `.sandpit`
 * is kept: the policy trusts commands with repositories.
 */
export async function guardRepositories(hostRoot: string, gitWritable: boolean): Promise<RepositoryGuard> {
  const made: string[] = [];
  const readOnly: string[] = [];
  for (const name of gitWritable ? ['.sandpit'] : ['.git', '.sandpit']) {
    const host = join(hostRoot, name);
    const stat = await inTurn(host, async () => {
      const found = await lstat(host).catch(() => null);
      if (found !== null && !placeholders.has(host)) return found;
      if (found === null) await mkdir(host);
      placeholders.set(host, (placeholders.get(host) ?? 0) + 1);
      made.push(host);
      return found;
    }).catch(() => undefined);
    // Neither found nor made (the parent is gone or read-only): nothing to mount.
    if (stat === undefined) continue;
    // A link is left alone (binding it would mount wherever it points); the scan below catches its replacement.
    if (!stat?.isSymbolicLink()) readOnly.push(host);
  }
  const before = gitWritable ? new Map<string, string>() : await findRepositories(hostRoot);
  for (const [rel] of before) {
    const host = join(hostRoot, rel);
    if (rel !== '' && rel !== '.git' && !(await lstat(host).catch(() => null))?.isSymbolicLink()) readOnly.push(host);
  }
  return {
    readOnly,
    async finish() {
      const disarmed: string[] = [];
      if (!gitWritable) {
        for (const [rel, identity] of await findRepositories(hostRoot)) {
          if (before.get(rel) === identity) continue;
          if (await disarm(hostRoot, rel)) disarmed.push(rel === '' ? '.' : rel);
        }
      }
      for (const host of made) {
        await inTurn(host, async () => {
          const users = placeholders.get(host)! - 1;
          if (users > 0) {
            placeholders.set(host, users);
            return;
          }
          placeholders.delete(host);
          // Only while empty: a placeholder is read-only inside, so anything in it came from the host.
          await rmdir(host).catch(() => {});
        });
      }
      return disarmed;
    },
  };
}

/**
 * Every repository git could find in the workspace: `.git` entries of any kind and spelling (a
 * folder, a gitfile, a link) and bare repositories (a folder holding HEAD, objects and refs),
 * each with its identity (inode and kind), so one replaced during a command counts as new.
 */
async function findRepositories(hostRoot: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const queue = [''];
  while (queue.length > 0) {
    const rel = queue.pop()!;
    const host = join(hostRoot, rel);
    let entries: Dirent[];
    try {
      entries = await readdir(host, { withFileTypes: true });
    } catch {
      continue;
    }
    if (await isBareRepository(host, entries)) {
      found.set(rel, await identity(join(host, 'HEAD')));
      if (rel !== '') continue;
    }
    for (const entry of entries) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (rel === '' && entry.name === '.sandpit') continue;
      if (foldsToGitDir(entry.name)) found.set(child, await identity(join(host, entry.name)));
      else if (entry.isDirectory()) queue.push(child);
    }
  }
  return found;
}

// What git's discovery takes for a repository's own folder: HEAD naming a ref or an object, objects/ and refs/.
async function isBareRepository(host: string, entries: Dirent[]): Promise<boolean> {
  const named = (name: string) => entries.find((e) => e.name === name);
  if (!named('objects')?.isDirectory() || !named('refs')?.isDirectory()) return false;
  const head = named('HEAD');
  if (head?.isSymbolicLink()) return true;
  if (!head?.isFile()) return false;
  const text = await readFile(join(host, 'HEAD'), 'utf8').catch(() => '');
  return /^ref:|^[0-9a-f]{40}\s*$|^[0-9a-f]{64}\s*$/.test(text);
}

async function identity(host: string): Promise<string> {
  const stat = await lstat(host).catch(() => null);
  return stat ? `${stat.ino}:${stat.mode}` : 'gone';
}

// A `.git` entry is renamed `.git.disarmed` (its HEAD too, when it is a folder); a bare repository loses its HEAD the same way.
async function disarm(hostRoot: string, rel: string): Promise<boolean> {
  const host = join(hostRoot, rel);
  const stat = await lstat(host).catch(() => null);
  if (!stat) return false;
  const bare = !foldsToGitDir(rel.split('/').pop() ?? '');
  if (stat.isDirectory()) await rename(join(host, 'HEAD'), join(host, `HEAD${DISARMED}`)).catch(() => {});
  if (bare) return true;
  for (let n = 1; ; n++) {
    const target = `${host}${DISARMED}${n === 1 ? '' : `-${n}`}`;
    if (await lstat(target).catch(() => null)) continue;
    return rename(host, target).then(
      () => true,
      () => false,
    );
  }
}
