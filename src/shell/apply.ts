import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import { decodeText, isDecodeFailure } from '../text/codec.js';
import type { BufferedChange } from './overlay.js';

/** A file a command changed, with its text before and after for the change log (undefined: binary or too big; null: absent). */
export interface AppliedFile {
  path: string;
  before: string | null | undefined;
  after: string | null | undefined;
}

const KEEP_LIMIT = 1024 * 1024;
const textOf = (bytes: Uint8Array): string | undefined => {
  if (bytes.length > KEEP_LIMIT) return undefined;
  const decoded = decodeText(bytes);
  return isDecodeFailure(decoded) ? undefined : decoded.text;
};

/**
 * Carry a command's buffered changes into the workspace, parents before children. The workspace's
 * rescan then records them as the command's one change and one snapshot. This is the single place
 * a shell or script writes the backend, so it can be pointed at the workspace's own write path.
 * Resolves with the files it changed, their text before and after; a failure part-way keeps what was
 * applied (the rescan still finds it).
 */
export async function applyBufferedChanges(fs: WorkspaceFs, toAbs: (rel: string) => string, changes: BufferedChange[]): Promise<AppliedFile[]> {
  const files = new Map<string, AppliedFile>();
  const note = (path: string, before: string | null | undefined, after: string | null | undefined) => {
    const earlier = files.get(path);
    files.set(path, { path, before: earlier ? earlier.before : before, after });
  };
  const removeTree = async (abs: string, rel: string): Promise<void> => {
    const s = await fs.lstat(abs).catch((e) => (hasFsCode(e, 'ENOENT') ? null : Promise.reject(e)));
    if (!s) return;
    if (s.type !== 'dir') {
      note(rel, s.type === 'file' ? textOf(await fs.readFile(abs)) : undefined, null);
      return fs.unlink(abs);
    }
    for (const name of await fs.readdir(abs)) await removeTree(`${abs === '/' ? '' : abs}/${name}`, rel ? `${rel}/${name}` : name);
    await fs.rmdir(abs);
  };
  for (const { path, entry } of changes) {
    const abs = toAbs(path);
    const existing = await fs.lstat(abs).catch(() => null);
    if (entry.kind === 'deleted') {
      await removeTree(abs, path);
    } else if (entry.kind === 'dir') {
      if (existing && (entry.fresh || existing.type !== 'dir')) await removeTree(abs, path);
      if (!existing || entry.fresh || existing.type !== 'dir') await fs.mkdir(abs);
    } else {
      let before: string | null | undefined = null;
      if (existing?.type === 'file') before = textOf(await fs.readFile(abs));
      else if (existing) await removeTree(abs, path);
      await fs.writeFile(abs, entry.data);
      note(path, before, textOf(entry.data));
    }
  }
  return [...files.values()].filter((f) => f.before !== f.after || f.before === undefined);
}
