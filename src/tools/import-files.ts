import { toToolError } from '../fs/tool-error.js';
import { ToolError, type ErrorCode } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import type { ChangedFile } from '../workspace/change-log.js';
import { textForLog, textOfBytes } from './text-for-log.js';
import { defineTool } from './define.js';

/** One file brought in from outside (a folder a person picked, a dropped zip): raw bytes, any kind. */
export interface ImportedFile {
  path: string;
  bytes: Uint8Array;
}

export interface ImportResult {
  files: Array<{ path: string; bytes: number; created: boolean }>;
  /** files that were refused, each with its code; the others were still written */
  skipped: Array<{ path: string; code: ErrorCode; message: string }>;
  /** one change for the whole import (null when nothing was written) */
  change_id: string | null;
}

/**
 * Bytes written as they are, for an import a person asked for; not part of any toolset (models
 * speak text through write_file). Every path is confined like a tool's; an existing file is
 * replaced; a refused file is reported and the rest go on; the whole import is one change.
 */
export const importFilesTool = defineTool<{ files: ImportedFile[]; onProgress?: (done: number, total: number) => void }, ImportResult>({
  name: 'import_files',
  description: 'Write files from raw bytes, as an import from disk does.',
  mutates: true,
  schema: { type: 'object' },
  async run(args, ctx) {
    const result: ImportResult = { files: [], skipped: [], change_id: null };
    const changed: ChangedFile[] = [];
    for (const [index, file] of args.files.entries()) {
      if (index > 0) args.onProgress?.(index, args.files.length);
      try {
        if (typeof file?.path !== 'string' || !(file.bytes instanceof Uint8Array)) {
          throw new ToolError('INVALID_ARGUMENTS', 'each imported file needs a string path and its bytes');
        }
        await ctx.withPath(file.path, 'write', async (path, shown) => {
          if (path.stat && path.stat.type !== 'file') throw new ToolError('NOT_A_FILE', `'${shown}' is a ${path.stat.type === 'dir' ? 'directory' : 'link'}, so a file cannot replace it`);
          if (file.bytes.length > ctx.policy.limits.maxWriteBytes) {
            throw new ToolError('TOO_LARGE', `'${shown}' is ${file.bytes.length} bytes, over the ${ctx.policy.limits.maxWriteBytes}-byte write limit`);
          }
          const before = path.stat ? await textForLog(ctx, path.realRel) : null;
          await ctx.writeBytes(path, file.bytes);
          changed.push({ path: path.rel, before, after: textOfBytes(file.bytes) });
          result.files.push({ path: displayPath(path.rel), bytes: file.bytes.length, created: path.stat === null });
        });
      } catch (error) {
        const body = toToolError(error).toJSON();
        result.skipped.push({ path: typeof file?.path === 'string' ? file.path : String(file?.path), code: body.code, message: body.message });
      }
    }
    args.onProgress?.(args.files.length, args.files.length);
    if (changed.length > 0) result.change_id = ctx.recordChange(changed).id;
    return result;
  },
});
