import * as git from 'isomorphic-git';
import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import type { GitAccess } from '../snapshots/objects.js';
import { parallel } from '../snapshots/rescan.js';
import { objectId } from '../snapshots/sha1.js';
import type { FileChange, TreeFile } from './tree-diff.js';

const PARALLEL = 16;

/** Where files go: the backend and the workspace's root-relative to backend path mapping. */
export interface Target {
  fs: WorkspaceFs;
  toAbs(rel: string): string;
}

/**
 * Make the workspace's files match the `after` side of each change: removals first (a file may
 * become a folder), then writes in parallel. Executable files keep their mode where the backend
 * has modes; a symlink becomes a link, or a file holding its target where links are not supported
 * (git's own `core.symlinks=false` behaviour).
 */
export async function writeChanges(target: Target, access: GitAccess, changes: FileChange[], onFile?: (done: number) => void): Promise<void> {
  const { fs, toAbs } = target;
  for (const c of changes) if (c.before && !c.after) await removeFile(fs, toAbs, c.path);
  for (const c of changes) if (c.before && c.after) await removeFile(fs, toAbs, c.path, false);
  const writes = changes.filter((c) => c.after);
  // Folders first, one at a time and parents before children: a recursive mkdir racing another
  // over the same parent can fail half-way on some backends.
  const dirs = new Set<string>();
  for (const c of writes) for (let d = parentOf(c.path); d !== '' && !dirs.has(d); d = parentOf(d)) dirs.add(d);
  for (const dir of [...dirs].sort((a, b) => a.split('/').length - b.split('/').length)) await ensureDir(fs, toAbs(dir));
  let done = 0;
  await parallel(writes, PARALLEL, async (c) => {
    await writeFile(fs, toAbs(c.path), access, c.after!);
    onFile?.(++done);
  });
}

/** Whether the workspace's file at `path` is what `expected` says (null: absent). */
export async function fileMatches(fs: WorkspaceFs, abs: string, expected: TreeFile | null): Promise<boolean> {
  const stat = await fs.lstat(abs).catch((e) => { if (hasFsCode(e, 'ENOENT', 'ENOTDIR')) return null; throw e; });
  if (!expected) return stat === null;
  if (!stat || stat.type === 'dir') return false;
  const bytes = stat.type === 'symlink' ? new TextEncoder().encode(await fs.readlink(abs)) : await fs.readFile(abs);
  return objectId('blob', bytes) === expected.oid;
}

async function writeFile(fs: WorkspaceFs, abs: string, access: GitAccess, file: TreeFile): Promise<void> {
  const { blob } = await git.readBlob({ fs: access.fs, gitdir: access.gitdir, cache: access.cache, oid: file.oid });
  if (file.mode === '120000' && fs.capabilities?.symlinks !== false) {
    await fs.symlink(new TextDecoder().decode(blob), abs);
    return;
  }
  await fs.writeFile(abs, blob, { mode: file.mode === '100755' ? 0o755 : 0o644 });
}

async function ensureDir(fs: WorkspaceFs, abs: string): Promise<void> {
  await fs.mkdir(abs).catch(async (e) => {
    if (!hasFsCode(e, 'EEXIST') || (await fs.lstat(abs)).type !== 'dir') throw e;
  });
}

/** Remove a file and (when `prune`) the folders above it that it leaves empty. */
async function removeFile(fs: WorkspaceFs, toAbs: (rel: string) => string, rel: string, prune = true): Promise<void> {
  await fs.unlink(toAbs(rel)).catch((e) => { if (!hasFsCode(e, 'ENOENT')) throw e; });
  for (let dir = parentOf(rel); prune && dir !== ''; dir = parentOf(dir)) {
    const left = await fs.readdir(toAbs(dir)).catch(() => null);
    if (!left || left.length > 0) return;
    await fs.rmdir(toAbs(dir));
  }
}

/** Delete a folder and everything in it. */
export async function removeTree(fs: WorkspaceFs, abs: string): Promise<void> {
  const stat = await fs.lstat(abs).catch(() => null);
  if (!stat) return;
  if (stat.type !== 'dir') { await fs.unlink(abs); return; }
  for (const name of await fs.readdir(abs)) await removeTree(fs, `${abs}/${name}`);
  await fs.rmdir(abs);
}

export function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i === -1 ? '' : rel.slice(0, i);
}
