import { s } from '../../contract/index.js';
import { describeSnapshot, requireSnapshots } from './snapshot-support.js';
import { defineTool, READ_ONLY } from '../schema/define.js';
import { snapshotResult } from '../schema/result-schemas.js';

export const listSnapshots = defineTool({
  name: 'list_snapshots',
  title: 'List snapshots',
  description:
    'List snapshots, newest first: one is taken after every change the tools make. An undo or restore is a snapshot ' +
    'too (restored_to names the snapshot it brought back), and snapshots that were undone stay listed, so ' +
    'restore_snapshot can bring them back (redo).',
  mutates: false,
  annotations: READ_ONLY,
  schema: s.object({
    limit: s.optional(s.integer({ minimum: 1, maximum: 1000, description: 'How many to list (default 20).' })),
  }),
  resultSchema: s.object({
    snapshots: s.array(snapshotResult, { description: 'Newest first.' }),
    count: s.integer(),
    total: s.integer(),
    truncated: s.boolean(),
  }),
  async run(args, ctx) {
    const store = requireSnapshots(ctx);
    const limit = args.limit ?? 20;
    const all = await store.list(Number.MAX_SAFE_INTEGER);
    const shown = all.slice(0, limit);
    return {
      snapshots: shown.map((s) => describeSnapshot(s, store)),
      count: shown.length,
      total: all.length,
      truncated: all.length > shown.length,
    };
  },
});
