import { s } from '../contract/index.js';
import { MAX_PATCH_FILES } from '../patch/limits.js';
import { defineTool, DESTRUCTIVE } from './schema/define.js';

/** The schema, shared with toolsets that expose the same tool under their own surface. */
export const applyPatchSchema = s.object({
  patch: s.string({
    minLength: 1,
    description:
      "The whole patch, from '*** Begin Patch' to '*** End Patch'. Sections: '*** Add File: <path>' then lines starting '+'; " +
      "'*** Delete File: <path>'; '*** Update File: <path>', optionally '*** Move to: <path>', then chunks: an '@@' line " +
      "(optionally '@@ <a line above the change, such as a function signature>') followed by lines starting ' ' (unchanged context, " +
      "about 3 above and below), '-' (remove) or '+' (add); '*** End of File' after a chunk pins it to the end of the file.",
  }),
  dry_run: s.optional(
    s.boolean({ description: 'Check the patch and return what would change, with the unified diff, writing nothing.' }),
  ),
});

/** The result, shared like the schema. */
export const applyPatchResultSchema = s.object({
  files: s.array(
    s.object({
      path: s.string(),
      action: s.enum(['add', 'update', 'delete', 'move']),
      moved_to: s.nullable(s.string()),
      added_lines: s.integer(),
      removed_lines: s.integer(),
    }),
  ),
  change_id: s.nullable(s.string({ description: 'The change-log entry (null for a dry run).' })),
  unified_diff: s.optional(s.string({ description: 'Only for a dry run: the diff of what would change.' })),
  dry_run: s.optional(s.literal(true)),
});

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  title: 'Apply patch',
  description:
    `Create, update, move and delete up to ${MAX_PATCH_FILES} text files with one patch, all or nothing: if any part fails ` +
    '(a path, a chunk whose lines are not found), nothing is written and the error names the file, chunk and patch line. ' +
    'Chunks are found in file order; whitespace and typographic punctuation differences are tolerated when matching, ' +
    'and only the changed lines are rewritten (line endings, BOM and encoding are kept). Paths are relative to the workspace root.',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: applyPatchSchema,
  resultSchema: applyPatchResultSchema,
  // the patch engine loads with the first patch, not with every browser worker
  run: async (args, ctx) =>
    (await import('../patch/apply.js')).applyPatch(ctx, args.patch, { dryRun: args.dry_run === true }),
});
