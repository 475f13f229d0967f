import { adoptLineEndings } from '../text/eol.js';
import { fileSha256 } from '../workspace/sha-cache.js';
import { decodeText, isDecodeFailure } from '../text/codec.js';
import { PASSAGES, s, ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { encodingProperty, expectedShaProperty, pathProperty } from './common.js';
import { defineTool, DESTRUCTIVE_IDEMPOTENT } from './schema/define.js';
import { changeIdResult } from './schema/result-schemas.js';

export const writeFile = defineTool({
  name: 'write_file',
  title: 'Write file',
  description:
    'Create or replace a text file with `content` (required; an explicit empty string makes an empty file). ' +
    'Parent folders are created. An existing file keeps its encoding, BOM and line-ending style. ' +
    'overwrite:false refuses an existing file; expected_sha256 refuses unless the file still has that hash.',
  mutates: true,
  annotations: DESTRUCTIVE_IDEMPOTENT,
  schema: s.object({
    path: pathProperty('The file to write'),
    content: s.string({ description: 'The complete new text of the file.' }),
    overwrite: s.optional(s.boolean({ default: true, description: 'Replace an existing file (default true).' })),
    expected_sha256: s.optional(expectedShaProperty),
    encoding: s.optional({
      ...encodingProperty,
      description:
        "Encoding of the file (default: an existing file's own, utf-8 for a new one); name it for a file that is not UTF-8 and has no BOM.",
    }),
  }),
  resultSchema: s.object({
    path: s.string(),
    bytes: s.integer({ description: 'Bytes written.' }),
    created: s.boolean(),
    added_lines: s.integer(),
    removed_lines: s.integer(),
    change_id: changeIdResult,
  }),
  async run(args, ctx) {
    return ctx.withPath(args.path, 'write', async (path, shown) => {
      if (path.stat?.type === 'dir')
        throw new ToolError('NOT_A_FILE', `'${shown}' is a directory`, { hint: 'Write to a file path inside it.' });
      const exists = path.stat !== null;
      if (exists && args.overwrite === false) {
        throw new ToolError('ALREADY_EXISTS', `'${shown}' already exists and overwrite is false`, {
          hint: PASSAGES.existsUseEdit,
        });
      }
      const oldBytes = exists
        ? await ctx.fs.readFile(path.abs).catch((e) => {
            throw toToolError(e, shown);
          })
        : null;
      ctx.checkWritable(path, oldBytes && (await fileSha256(ctx.fs, path.abs, oldBytes)), args.expected_sha256);
      const old = oldBytes && decodeText(oldBytes, args.encoding);
      const oldText = old && !isDecodeFailure(old) ? old : null;
      const encoding = oldText?.encoding ?? args.encoding ?? 'utf-8';
      const bom = oldText ? oldText.bom : encoding === 'utf-16le' || encoding === 'utf-16be';
      const text = oldText ? adoptLineEndings(oldText.text, args.content) : args.content;
      const bytes = ctx.encode(path, text, encoding, bom);
      await ctx.writeBytes(path, bytes);
      const change = ctx.recordChange([
        { path: path.rel, before: exists ? (oldText?.text ?? undefined) : null, after: text },
      ]);
      return {
        path: shown,
        bytes: bytes.length,
        created: !exists,
        added_lines: change.added_lines,
        removed_lines: change.removed_lines,
        change_id: change.id,
      };
    });
  },
});
