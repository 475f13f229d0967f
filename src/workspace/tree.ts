import type { WorkspaceFs } from '../fs/types.js';
import { joinRel, type PathResolver } from './paths.js';

/** Every file and link below a folder (links are not followed), as root-relative paths, sorted. */
export async function filesUnder(fs: WorkspaceFs, paths: PathResolver, rel: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const names = (await fs.readdir(paths.toAbs(dir))).sort();
    for (const name of names) {
      const child = joinRel(dir, name);
      const stat = await fs.lstat(paths.toAbs(child));
      if (stat.type === 'dir') await walk(child);
      else out.push(child);
    }
  };
  await walk(rel);
  return out;
}
