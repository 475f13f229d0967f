import { displayPath } from '../workspace/paths.js';
import { pathProperty } from './common.js';
import { defineTool } from './define.js';

const TYPE_NAMES = { file: 'file', dir: 'directory', symlink: 'symlink' } as const;

export const exists = defineTool<{ path: string }, Record<string, unknown>>({
  name: 'exists',
  description: 'Tell whether a path exists, and whether it is a file or a directory (links inside the workspace are followed).',
  mutates: false,
  schema: {
    type: 'object',
    properties: { path: pathProperty('The path to check') },
    required: ['path'],
    additionalProperties: false,
  },
  async run(args, ctx) {
    const path = await ctx.resolve(args.path, 'read');
    return {
      path: displayPath(path.rel),
      exists: path.stat !== null,
      type: path.stat ? TYPE_NAMES[path.stat.type] : null,
    };
  },
});
