import { s, ToolError } from '../contract/index.js';
import { pathProperty } from './common.js';
import { defineTool } from './schema/define.js';

export const createDirectory = defineTool({
  name: 'create_directory',
  title: 'Create directory',
  description: 'Create a directory and any missing parents. An existing directory is not an error (created: false).',
  mutates: true,
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  schema: s.object({ path: pathProperty('The directory to create') }),
  resultSchema: s.object({ path: s.string(), created: s.boolean({ description: 'false when it already existed.' }) }),
  async run(args, ctx) {
    return ctx.withPath(args.path, 'write', async (path, shown) => {
      if (path.stat?.type === 'dir') return { path: shown, created: false };
      if (path.stat)
        throw new ToolError('ALREADY_EXISTS', `'${shown}' already exists as a file`, {
          hint: 'Choose another name, or delete the file first.',
        });
      await ctx.applySteps([{ kind: 'mkdir', rel: path.realRel }]);
      return { path: shown, created: true };
    });
  },
});
