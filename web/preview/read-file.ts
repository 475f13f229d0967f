import type { Workspace } from '../../src/workspace-core.js';
import { PathResolver, RESERVED_TOP_LEVEL } from '../../src/workspace/paths.js';

/** What the preview's file server gets for one path: the bytes as stored, or why there are none. */
export type PreviewEntry =
  | {
      /** a file the preview may serve */
      kind: 'file';
      /** its exact bytes */
      bytes: Uint8Array;
    }
  | {
      /** a folder: the server answers with its index.html */
      kind: 'directory';
    }
  | {
      /** nothing there, or nothing the preview may serve */
      kind: 'missing';
    };

/**
 * Read one workspace file for the preview, by its root-relative path. The path is confined like
 * a tool's (links that leave the root, `..` and host paths come back `missing`), and Sandpit's own
 * `.sandpit` folder is never served: the preview reads what the workspace holds, nothing more.
 */
export async function readPreviewEntry(ws: Workspace, rel: string): Promise<PreviewEntry> {
  const found = await locate(ws, rel);
  if (found.kind !== 'file') return found;
  try {
    return { kind: 'file', bytes: await ws.fs.readFile(found.abs) };
  } catch {
    return { kind: 'missing' };
  }
}

/** What `readPreviewEntry` would find at a path, without reading a file's bytes: module resolution asks this of many paths. */
export async function previewEntryKind(ws: Workspace, rel: string): Promise<PreviewEntry['kind']> {
  return (await locate(ws, rel)).kind;
}

async function locate(
  ws: Workspace,
  rel: string,
): Promise<{ kind: 'file'; abs: string } | { kind: 'directory' } | { kind: 'missing' }> {
  if (typeof rel !== 'string' || rel.includes('\0')) return { kind: 'missing' };
  const clean = rel.replace(/^\/+/, '');
  if (RESERVED_TOP_LEVEL.includes(clean.split('/')[0]!)) return { kind: 'missing' };
  try {
    const resolved = await new PathResolver(ws.fs, ws.root).resolve(clean === '' ? '.' : clean, '', 'read');
    if (RESERVED_TOP_LEVEL.includes(resolved.realRel.split('/')[0]!)) return { kind: 'missing' };
    const { stat } = resolved;
    if (!stat) return { kind: 'missing' };
    if (stat.type === 'dir') return { kind: 'directory' };
    if (stat.type !== 'file') return { kind: 'missing' };
    return { kind: 'file', abs: resolved.abs };
  } catch {
    return { kind: 'missing' };
  }
}
