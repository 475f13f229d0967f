import { describeSnapshot, requireSnapshots } from './snapshot-support.js';
import { defineTool } from './define.js';

export const snapshotTool = defineTool<{ message?: string }, Record<string, unknown>>({
  name: 'snapshot',
  description:
    'Record the whole workspace now as a snapshot (a git commit in a shadow repository), with an optional message, ' +
    'so you can diff against it or go back to it later. Changes made outside the tools are picked up too. ' +
    'Files excluded by .gitignore are left out, and files over the size cap are left out and listed in skipped.',
  mutates: false,
  schema: {
    type: 'object',
    properties: {
      message: { type: 'string', maxLength: 2000, description: 'What this checkpoint is, e.g. "tests pass before refactor".' },
    },
    additionalProperties: false,
  },
  async run(args, ctx) {
    const store = requireSnapshots(ctx);
    const out = await store.rescan({ message: args.message?.trim() || 'snapshot', tool: 'snapshot' }, true);
    return { ...describeSnapshot(out.snapshot!, store), skipped: out.skipped };
  },
});
