import { dominantEol } from '../text/lines.js';
import { s, ToolError } from '../contract/index.js';
import { pathProperty } from './common.js';
import { ADDITIVE, defineTool } from './schema/define.js';
import { changeIdResult } from './schema/result-schemas.js';

export const appendFile = defineTool({
  name: 'append_file',
  title: 'Append to file',
  description:
    'Add `content` (required) to the end of a text file, creating it (and its folders) if missing. Nothing is inserted ' +
    'between the old end and the new text, so start content with a newline when the file lacks one. The file keeps its encoding and line-ending style.',
  mutates: true,
  annotations: ADDITIVE,
  schema: s.object({
    path: pathProperty('The file to append to'),
    content: s.string({ description: 'The text to add at the end.' }),
  }),
  resultSchema: s.object({
    path: s.string(),
    bytes: s.integer({ description: 'Size of the file after the append.' }),
    created: s.boolean(),
    added_lines: s.integer(),
    change_id: changeIdResult,
  }),
  async run(args, ctx) {
    return ctx.withPath(args.path, 'write', async (path, shown) => {
      if (path.stat?.type === 'dir') throw new ToolError('NOT_A_FILE', `'${shown}' is a directory`);
      const exists = path.stat !== null;
      const file = exists ? await ctx.readText(path) : null;
      const before = file?.text ?? '';
      const eol = file ? dominantEol(before) : '\n';
      const addition =
        eol === '\r\n' && !args.content.includes('\r') ? args.content.replace(/\n/g, '\r\n') : args.content;
      const text = before + addition;
      const bytes = ctx.encode(path, text, file?.encoding ?? 'utf-8', file?.bom ?? false);
      await ctx.writeBytes(path, bytes, { previousSha: file?.sha256 ?? null });
      const change = ctx.recordChange([{ path: path.rel, before: exists ? before : null, after: text }]);
      return {
        path: shown,
        bytes: bytes.length,
        created: !exists,
        added_lines: change.added_lines,
        change_id: change.id,
      };
    });
  },
});
