import { s } from '../../contract/index.js';
import { describeSnapshot, requireSnapshots } from './snapshot-support.js';
import { ADDITIVE, defineTool } from '../schema/define.js';
import { skippedFileResult, snapshotResultProperties } from '../schema/result-schemas.js';

export const snapshotTool = defineTool({
  name: 'snapshot',
  title: 'Take snapshot',
  description:
    'Record the whole workspace now as a snapshot (a git commit in a shadow repository), with an optional message, ' +
    'so you can diff against it or go back to it later. Changes made outside the tools are picked up too. ' +
    'Files excluded by .gitignore are left out; folders no one versions (node_modules, build and cache folders) ' +
    'and files over the size cap are left out and listed in skipped.',
  // It changes no file, but it writes a commit to the shadow repository: not read-only.
  mutates: false,
  annotations: ADDITIVE,
  schema: s.object({
    message: s.optional(
      s.string({ maxLength: 2000, description: 'What this checkpoint is, e.g. "tests pass before refactor".' }),
    ),
  }),
  resultSchema: s.object({
    ...snapshotResultProperties,
    skipped: s.array(skippedFileResult, {
      description: 'What was left out: files over the size cap, folders no one versions.',
    }),
  }),
  async run(args, ctx) {
    const store = requireSnapshots(ctx);
    const out = await store.rescan({ message: args.message?.trim() || 'snapshot', tool: 'snapshot' }, true);
    return { ...describeSnapshot(out.snapshot!, store), skipped: out.skipped };
  },
});
