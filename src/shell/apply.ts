import { hasFsCode } from '../fs/errors.js';
import type { WorkspaceFs } from '../fs/types.js';
import type { BufferedChange } from './overlay.js';

/**
 * Carry a command's buffered changes into the workspace, parents before children. The workspace's
 * rescan then records them as the command's one change and one snapshot. This is the single place
 * a shell or script writes the backend, so it can be pointed at the workspace's own write path.
 * Resolves with the root-relative paths it touched; a failure part-way keeps what was applied.
 */
export async function applyBufferedChanges(fs: WorkspaceFs, toAbs: (rel: string) => string, changes: BufferedChange[]): Promise<string[]> {
  const touched: string[] = [];
  for (const { path, entry } of changes) {
    const abs = toAbs(path);
    if (entry.kind === 'deleted') {
      await removeTree(fs, abs);
    } else if (entry.kind === 'dir') {
      const existing = await fs.lstat(abs).catch(() => null);
      if (existing && (entry.fresh || existing.type !== 'dir')) await removeTree(fs, abs);
      if (!existing || entry.fresh || existing.type !== 'dir') await fs.mkdir(abs);
    } else {
      const existing = await fs.lstat(abs).catch(() => null);
      if (existing && existing.type !== 'file') await removeTree(fs, abs);
      await fs.writeFile(abs, entry.data);
    }
    touched.push(path);
  }
  return touched;
}

async function removeTree(fs: WorkspaceFs, abs: string): Promise<void> {
  const s = await fs.lstat(abs).catch((e) => (hasFsCode(e, 'ENOENT') ? null : Promise.reject(e)));
  if (!s) return;
  if (s.type !== 'dir') return fs.unlink(abs);
  for (const name of await fs.readdir(abs)) await removeTree(fs, `${abs === '/' ? '' : abs}/${name}`);
  await fs.rmdir(abs);
}
