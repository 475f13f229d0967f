import { toToolError } from '../fs/tool-error.js';
import { ERROR_CODES, s, ToolError, type ErrorCode, type Infer, type Schema } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import type { ChangedFile } from '../workspace/change-log.js';
import { textForLog, textOfBytes } from './text-for-log.js';
import { defineTool, DESTRUCTIVE_IDEMPOTENT } from './schema/define.js';

/** One file brought in from outside (a folder a person picked, a dropped zip): raw bytes, any kind. */
export interface ImportedFile {
  /** where it goes, relative to the root */
  path: string;
  /** its bytes */
  bytes: Uint8Array;
}

const importResultShape = s.object({
  files: s.array(s.object({ path: s.string(), bytes: s.integer(), created: s.boolean() })),
  skipped: s.array(s.object({ path: s.string(), code: s.enum(ERROR_CODES), message: s.string() }), {
    description: 'Files that were refused, each with its code; the others were still written.',
  }),
  change_id: s.nullable(s.string({ description: 'One change for the whole import (null when nothing was written).' })),
});

/** What an import answers: the files written, the files refused, and its one change. */
export interface ImportResult {
  /** the files written */
  files: Array<{
    /** the file's root-relative path */
    path: string;
    /** its size */
    bytes: number;
    /** it did not exist before */
    created: boolean;
  }>;
  /** the files refused, each with its code; the others were still written */
  skipped: Array<{
    /** the file's path as given */
    path: string;
    /** why it was refused */
    code: ErrorCode;
    /** what went wrong */
    message: string;
  }>;
  /** one change for the whole import (null when nothing was written) */
  change_id: string | null;
}

// The interface is the schema's type written out (so the reference can document each field);
// these two lines fail to compile the moment either one drifts from the other.
const sameFromSchema: ImportResult = {} as Infer<typeof importResultShape>;
const sameToSchema: Infer<typeof importResultShape> = {} as ImportResult;
void sameFromSchema;
void sameToSchema;

/** The result schema of an import (see `Workspace.importFiles`). */
export const importResultSchema: Schema<ImportResult> = importResultShape;

// Raw bytes and a progress callback cannot be JSON Schema: importFiles checks the array itself.
const importArgsSchema = { type: 'object' } as Schema<{
  files: ImportedFile[];
  onProgress?: (done: number, total: number) => void;
}>;

/**
 * Bytes written as they are, for an import a person asked for; not part of any toolset (models
 * speak text through write_file). Every path is confined like a tool's; an existing file is
 * replaced; a refused file is reported and the rest go on; the whole import is one change.
 */
export const importFilesTool = defineTool({
  name: 'import_files',
  title: 'Import files',
  description: 'Write files from raw bytes, as an import from disk does.',
  mutates: true,
  annotations: DESTRUCTIVE_IDEMPOTENT,
  schema: importArgsSchema,
  resultSchema: importResultSchema,
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
          if (path.stat && path.stat.type !== 'file')
            throw new ToolError(
              'NOT_A_FILE',
              `'${shown}' is a ${path.stat.type === 'dir' ? 'directory' : 'link'}, so a file cannot replace it`,
            );
          if (file.bytes.length > ctx.policy.limits.maxWriteBytes) {
            throw new ToolError(
              'TOO_LARGE',
              `'${shown}' is ${file.bytes.length} bytes, over the ${ctx.policy.limits.maxWriteBytes}-byte write limit`,
            );
          }
          const before = path.stat ? await textForLog(ctx, path.realRel) : null;
          await ctx.writeBytes(path, file.bytes);
          changed.push({ path: path.rel, before, after: textOfBytes(file.bytes) });
          result.files.push({ path: displayPath(path.rel), bytes: file.bytes.length, created: path.stat === null });
        });
      } catch (error) {
        const body = toToolError(error).toJSON();
        result.skipped.push({
          path: typeof file?.path === 'string' ? file.path : String(file?.path),
          code: body.code,
          message: body.message,
        });
      }
    }
    args.onProgress?.(args.files.length, args.files.length);
    if (changed.length > 0) result.change_id = ctx.recordChange(changed).id;
    return result;
  },
});
