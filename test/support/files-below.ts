import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every file below `dir`, as paths relative to it. */
export async function filesBelow(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesBelow(dir, path)));
    else out.push(path);
  }
  return out;
}
