import * as git from 'isomorphic-git';
import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import type { GitAccess } from '../snapshots/objects.js';
import { objectId } from '../snapshots/sha1.js';
import type { FileStep, FileWriter } from '../workspace/file-writer.js';
import type { FileChange, TreeFile } from './tree-diff.js';

export { removeTree } from '../fs/helpers.js';

const PARALLEL = 16;

export interface WriteChangesOptions {
  /** the name the change log records the change under (git_clone, git_pull) */
  tool: string;
  /** the workspace was empty: a failure removes everything written, folders included */
  intoEmpty?: boolean;
  onFile?: (done: number) => void;
  /** read a blob's content faster than isomorphic-git does (the clone's own pack reader) */
  readBlob?: (oid: string) => Promise<Uint8Array | null>;
}

/**
 * Make the workspace's files match the `after` side of each change, through the workspace's one
 * write path: removals first (a file may become a folder; folders they empty go too), then writes
 * in parallel, each blob read only when its file is written. Executable files keep their mode
 * where the backend has modes; a symlink becomes a link, or a file holding its target where links
 * are not supported (git's own `core.symlinks=false` behaviour). The whole checkout is one change.
 */
export async function writeChanges(
  writer: FileWriter,
  access: GitAccess,
  changes: FileChange[],
  options: WriteChangesOptions,
): Promise<void> {
  const steps: FileStep[] = [];
  for (const c of changes) if (c.before && !c.after) steps.push({ kind: 'remove', rel: c.path });
  const writes = changes.filter((c) => c.after);
  for (const c of writes) if (c.before) steps.push({ kind: 'remove', rel: c.path });
  const removals = steps.length;
  for (const c of writes) steps.push(writeStep(access, c.path, c.after!, options));
  await writer.apply(steps, {
    allOrNothing: options.intoEmpty === true,
    prune: true,
    parallel: PARALLEL,
    noteForSnapshot: false,
    record: { tool: options.tool },
    onProgress: (done) => {
      if (done > removals) options.onFile?.(done - removals);
    },
  });
}

function writeStep(
  access: GitAccess,
  rel: string,
  file: TreeFile,
  { intoEmpty, readBlob }: WriteChangesOptions,
): FileStep {
  const blob = async () =>
    (await readBlob?.(file.oid)) ??
    (await git.readBlob({ fs: access.fs, gitdir: access.gitdir, cache: access.cache, oid: file.oid })).blob;
  const before = intoEmpty ? { before: null } : {};
  if (file.mode === '120000')
    return { kind: 'link', rel, target: async () => new TextDecoder().decode(await blob()), ...before };
  return { kind: 'write', rel, bytes: blob, executable: file.mode === '100755', ...before };
}

/** Whether the workspace's file at `path` is what `expected` says (null: absent). */
export async function fileMatches(fs: WorkspaceFs, abs: string, expected: TreeFile | null): Promise<boolean> {
  const stat = await fs.lstat(abs).catch((e) => {
    if (hasFsCode(e, 'ENOENT', 'ENOTDIR')) return null;
    throw e;
  });
  if (!expected) return stat === null;
  if (!stat || stat.type === 'dir') return false;
  const bytes = stat.type === 'symlink' ? new TextEncoder().encode(await fs.readlink(abs)) : await fs.readFile(abs);
  return objectId('blob', bytes) === expected.oid;
}
