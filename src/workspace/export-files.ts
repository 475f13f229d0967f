import type { WorkspaceFs } from '../fs/types.js';
import { joinRel, RESERVED_TOP_LEVEL, type PathResolver } from './paths.js';

/** One file of the workspace as stored: the exact bytes, whatever their encoding or kind. */
export interface ExportedFile {
  /** its root-relative path */
  path: string;
  /** its exact bytes */
  bytes: Uint8Array;
}

/** What `exportFiles` gives: every file's bytes, and what it left out. */
export interface ExportResult {
  /** every file, with its bytes */
  files: ExportedFile[];
  /** links, which an archive of plain files cannot carry faithfully */
  skipped: string[];
}

/**
 * Every file below the root with its bytes, sorted, Sandpit's own `.sandpit` left out. Reads the
 * backend directly: an export copies what is there, it is not a model reading text.
 */
export async function exportFiles(
  fs: WorkspaceFs,
  paths: PathResolver,
  onProgress?: (done: number) => void,
): Promise<ExportResult> {
  const result: ExportResult = { files: [], skipped: [] };
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await fs.readdir(paths.toAbs(dir))).sort()) {
      if (dir === '' && RESERVED_TOP_LEVEL.includes(name)) continue;
      const rel = joinRel(dir, name);
      const stat = await fs.lstat(paths.toAbs(rel));
      if (stat.type === 'dir') await walk(rel);
      else if (stat.type === 'file') {
        result.files.push({ path: rel, bytes: await fs.readFile(paths.toAbs(rel)) });
        onProgress?.(result.files.length);
      } else result.skipped.push(rel);
    }
  };
  await walk('');
  return result;
}
