import { s } from '../contract/index.js';
import { displayPath } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool, READ_ONLY } from './schema/define.js';

const TYPE_NAMES = { file: 'file', dir: 'directory', symlink: 'symlink' } as const;

export const exists = defineTool({
  name: 'exists',
  title: 'Check path exists',
  description:
    'Tell whether a path exists, and whether it is a file or a directory (links inside the workspace are followed).',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({ path: pathProperty('The path to check') }),
  resultSchema: s.object({
    path: s.string(),
    exists: s.boolean(),
    type: s.nullable(s.enum(['file', 'directory', 'symlink'])),
  }),
  async run(args, ctx) {
    const path = await ctx.resolve(args.path, 'read');
    return {
      path: displayPath(path.rel),
      exists: path.stat !== null,
      type: path.stat ? TYPE_NAMES[path.stat.type] : null,
    };
  },
});
