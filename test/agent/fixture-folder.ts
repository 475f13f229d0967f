import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A real temporary folder holding `files`. */
export async function folderWith(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sandpit-agent-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

/** The named files' current text. */
export async function readAll(root: string, paths: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const path of paths) out[path] = await readFile(join(root, path), 'utf8');
  return out;
}
