import type { TextEncodingName } from '../text/codec.js';
import { adoptLineEndings } from '../text/eol.js';
import { fileSha256 } from '../workspace/sha-cache.js';
import { decodeText, isDecodeFailure } from '../text/codec.js';
import { ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { encodingProperty, expectedShaProperty, pathProperty } from './common.js';
import { defineTool } from './define.js';

interface WriteFileArgs {
  path: string;
  content: string;
  overwrite?: boolean;
  expected_sha256?: string;
  encoding?: TextEncodingName;
}

export const writeFile = defineTool<WriteFileArgs, Record<string, unknown>>({
  name: 'write_file',
  description:
    'Create or replace a text file with `content` (required; an explicit empty string makes an empty file). ' +
    'Parent folders are created. An existing file keeps its encoding, BOM and line-ending style. ' +
    'overwrite:false refuses an existing file; expected_sha256 refuses unless the file still has that hash.',
  mutates: true,
  schema: {
    type: 'object',
    properties: {
      path: pathProperty('The file to write'),
      content: { type: 'string', description: 'The complete new text of the file.' },
      overwrite: { type: 'boolean', default: true, description: 'Replace an existing file (default true).' },
      expected_sha256: expectedShaProperty,
      encoding: { ...encodingProperty, description: 'Encoding of the file (default: an existing file\'s own, utf-8 for a new one); name it for a file that is not UTF-8 and has no BOM.' },
    },
    required: ['path', 'content'],
    additionalProperties: false,
  },
  async run(args, ctx) {
    return ctx.withPath(args.path, 'write', async (path, shown) => {
      if (path.stat?.type === 'dir') throw new ToolError('NOT_A_FILE', `'${shown}' is a directory`, { hint: 'Write to a file path inside it.' });
      const exists = path.stat !== null;
      if (exists && args.overwrite === false) {
        throw new ToolError('ALREADY_EXISTS', `'${shown}' already exists and overwrite is false`, {
          hint: 'Use edit_file to change it, or set overwrite: true to replace it.',
        });
      }
      const oldBytes = exists ? await ctx.fs.readFile(path.abs).catch((e) => { throw toToolError(e, shown); }) : null;
      ctx.checkWritable(path, oldBytes && (await fileSha256(ctx.fs, path.abs, oldBytes)), args.expected_sha256);
      const old = oldBytes && decodeText(oldBytes, args.encoding);
      const oldText = old && !isDecodeFailure(old) ? old : null;
      const encoding = oldText?.encoding ?? args.encoding ?? 'utf-8';
      const bom = oldText ? oldText.bom : encoding === 'utf-16le' || encoding === 'utf-16be';
      const text = oldText ? adoptLineEndings(oldText.text, args.content) : args.content;
      const bytes = ctx.encode(path, text, encoding, bom);
      await ctx.writeBytes(path, bytes);
      const change = ctx.recordChange([{ path: path.rel, before: exists ? (oldText?.text ?? undefined) : null, after: text }]);
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
