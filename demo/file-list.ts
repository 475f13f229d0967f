import type { Workspace } from '../src/index.js';

/** One file or folder of the workspace, as the list shows it. */
export interface ListedEntry {
  path: string;
  type: 'file' | 'dir' | 'symlink';
  size: number;
}

// Sandpit keeps its own state under this top-level folder; it is not the user's content.
const RESERVED = new Set(['.sandpit']);

/** Every entry below the workspace root, folders before their contents, sorted by path. */
export async function listEntries(ws: Workspace): Promise<ListedEntry[]> {
  const out: ListedEntry[] = [];
  const base = ws.root.endsWith('/') ? ws.root : `${ws.root}/`;
  async function walk(dir: string, rel: string): Promise<void> {
    const names = (await ws.fs.readdir(dir)).sort();
    for (const name of names) {
      if (rel === '' && RESERVED.has(name)) continue;
      const path = `${rel}${name}`;
      // lstat, so a symlink is listed as one instead of being followed out of the tree.
      const stat = await ws.fs.lstat(`${base}${path}`);
      out.push({ path, type: stat.type, size: stat.type === 'file' ? stat.size : 0 });
      if (stat.type === 'dir') await walk(`${base}${path}`, `${path}/`);
    }
  }
  await walk(base, '');
  return out;
}
