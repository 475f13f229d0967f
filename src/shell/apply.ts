import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import { textOfBytes } from '../workspace/change-log.js';
import type { FileStep } from '../workspace/file-writer.js';
import type { BufferedChange } from './overlay.js';

/**
 * The workspace's write path, as a command's runner is handed it. `gitCommand` asks for the one
 * exception to the `.git` rule: the shell's own `git` writing the workspace's repository.
 */
export type ApplySteps = (steps: FileStep[], options?: { gitCommand?: boolean }) => Promise<unknown>;

/** A change the shell's `git` made inside the root's `.git`: applied with the git command's capability. */
const isGitOwn = (c: BufferedChange) => c.entry.byGit === true && (c.path === '.git' || c.path.startsWith('.git/'));

/** A file a command changed, with its text before and after for the change log (undefined: binary or too big; null: absent). */
export interface AppliedFile {
  path: string;
  before: string | null | undefined;
  after: string | null | undefined;
}

const textOf = textOfBytes;

/**
 * Carry a command's buffered changes into the workspace through its one write path (`apply`),
 * parents before children: links never followed, `.git` left alone, every path locked. Resolves
 * with the files it changed, their text before and after, which run_command records as the
 * command's one change and one snapshot; a failure part-way keeps what was applied (the next
 * rescan finds it), as a real shell keeps the writes made before a failure.
 */
export async function applyBufferedChanges(
  fs: WorkspaceFs,
  toAbs: (rel: string) => string,
  changes: BufferedChange[],
  apply: ApplySteps,
): Promise<AppliedFile[]> {
  const files = new Map<string, AppliedFile>();
  const note = (path: string, before: string | null | undefined, after: string | null | undefined) => {
    const earlier = files.get(path);
    files.set(path, { path, before: earlier ? earlier.before : before, after });
  };
  const noteRemoved = async (abs: string, rel: string): Promise<void> => {
    const s = await fs.lstat(abs).catch((e) => (hasFsCode(e, 'ENOENT', 'ENOTDIR') ? null : Promise.reject(e)));
    if (!s) return;
    if (s.type !== 'dir') {
      note(rel, s.type === 'file' ? textOf(await fs.readFile(abs)) : undefined, null);
      return;
    }
    for (const name of await fs.readdir(abs))
      await noteRemoved(`${abs === '/' ? '' : abs}/${name}`, rel ? `${rel}/${name}` : name);
  };
  let steps: FileStep[] = [];
  // folders this plan removes whole: what was below them is gone by the time a later step runs
  const removedTrees: string[] = [];
  const remove = async (abs: string, rel: string, type: string) => {
    await noteRemoved(abs, rel);
    if (type === 'dir') removedTrees.push(`${rel}/`);
    steps.push(type === 'dir' ? { kind: 'remove-tree', rel } : { kind: 'remove', rel });
  };
  const gitSteps: FileStep[] = [];
  for (const change of changes) {
    const { path, entry } = change;
    const own = isGitOwn(change);
    const plain = steps;
    if (own) steps = gitSteps;
    const abs = toAbs(path);
    const existing = removedTrees.some((t) => path.startsWith(t))
      ? null
      : await fs.lstat(abs).catch((e) => (hasFsCode(e, 'ENOENT', 'ENOTDIR') ? null : Promise.reject(e)));
    if (entry.kind === 'deleted') {
      if (existing) await remove(abs, path, existing.type);
    } else if (entry.kind === 'dir') {
      if (existing && (entry.fresh || existing.type !== 'dir')) await remove(abs, path, existing.type);
      if (!existing || entry.fresh || existing.type !== 'dir') steps.push({ kind: 'mkdir', rel: path });
    } else if (entry.kind === 'link') {
      if (existing) await remove(abs, path, existing.type);
      steps.push({ kind: 'link', rel: path, target: entry.target });
      note(path, existing?.type === 'file' ? textOf(await fs.readFile(abs)) : null, undefined);
    } else {
      let before: string | null | undefined = null;
      if (existing?.type === 'file') before = textOf(await fs.readFile(abs));
      else if (existing) await remove(abs, path, existing.type);
      steps.push({
        kind: 'write',
        rel: path,
        bytes: entry.data,
        ...(entry.executable === undefined ? {} : { executable: entry.executable }),
      });
      note(path, before, textOf(entry.data));
    }
    steps = plain;
  }
  if (steps.length > 0) await apply(steps);
  if (gitSteps.length > 0) await apply(gitSteps, { gitCommand: true });
  return [...files.values()].filter((f) => f.before !== f.after || f.before === undefined);
}
