import { requireSnapshots } from './snapshot-support.js';
import { EMPTY_TREE } from '../../snapshots/tree.js';
import { lexicalPath } from '../../workspace/paths.js';
import { pathProperty } from '../common.js';
import { s } from '../../contract/index.js';
import { defineTool, READ_ONLY } from '../schema/define.js';

const idProperty = (what: string) =>
  s.string({ minLength: 4, maxLength: 40, pattern: '^[0-9a-fA-F]+$', description: what });

export const diffSnapshots = defineTool({
  name: 'diff_snapshots',
  title: 'Diff snapshots',
  description:
    'Show what changed between two snapshots: each file with its status (added, modified, deleted) and line counts, ' +
    'plus a unified diff. By default compares the latest snapshot with the one before it. Give path to look at one file or folder.',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    from: s.optional(idProperty('The older snapshot id (default: the snapshot before `to`).')),
    to: s.optional(idProperty('The newer snapshot id (default: the latest).')),
    path: s.optional(pathProperty('Only this file or folder')),
  }),
  resultSchema: s.object({
    from: s.nullable(s.string()),
    to: s.string(),
    path: s.optional(s.string()),
    files: s.array(
      s.object({
        path: s.string(),
        status: s.enum(['added', 'modified', 'deleted']),
        added_lines: s.integer(),
        removed_lines: s.integer(),
        binary: s.optional(s.boolean()),
      }),
    ),
    count: s.integer(),
    unified_diff: s.string(),
    truncated: s.boolean({ description: 'The unified diff was cut (the file list is complete).' }),
  }),
  async run(args, ctx) {
    const store = requireSnapshots(ctx);
    const path = args.path === undefined ? '' : lexicalPath(args.path, ctx.cwd);
    await store.open();
    const to = args.to ? await store.find(args.to) : store.history.head!;
    const parent = to.parent ? store.history.find(to.parent) : undefined;
    const from = args.from ? await store.find(args.from) : typeof parent === 'object' ? parent : undefined;
    const diff = await (await import('../../snapshots/diff.js')).diffTrees(
      store,
      from?.tree ?? EMPTY_TREE,
      to.tree,
      path,
    );
    return {
      from: from?.id ?? null,
      to: to.id,
      ...(path ? { path } : {}),
      files: diff.files,
      count: diff.files.length,
      unified_diff: diff.unified_diff,
      truncated: diff.truncated,
    };
  },
});
