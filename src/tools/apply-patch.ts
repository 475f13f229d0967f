import { applyPatch, MAX_PATCH_FILES, type PatchOutcome } from '../patch/apply.js';
import { defineTool } from './define.js';

interface ApplyPatchArgs {
  patch: string;
  dry_run?: boolean;
}

/** The schema, shared with toolsets that expose the same tool under their own surface. */
export const applyPatchSchema = {
  type: 'object',
  properties: {
    patch: {
      type: 'string',
      minLength: 1,
      description:
        "The whole patch, from '*** Begin Patch' to '*** End Patch'. Sections: '*** Add File: <path>' then lines starting '+'; " +
        "'*** Delete File: <path>'; '*** Update File: <path>', optionally '*** Move to: <path>', then chunks: an '@@' line " +
        "(optionally '@@ <a line above the change, such as a function signature>') followed by lines starting ' ' (unchanged context, " +
        "about 3 above and below), '-' (remove) or '+' (add); '*** End of File' after a chunk pins it to the end of the file.",
    },
    dry_run: { type: 'boolean', description: 'Check the patch and return what would change, with the unified diff, writing nothing.' },
  },
  required: ['patch'],
  additionalProperties: false,
} as const;

export const applyPatchTool = defineTool<ApplyPatchArgs, PatchOutcome>({
  name: 'apply_patch',
  description:
    `Create, update, move and delete up to ${MAX_PATCH_FILES} text files with one patch, all or nothing: if any part fails ` +
    '(a path, a chunk whose lines are not found), nothing is written and the error names the file, chunk and patch line. ' +
    'Chunks are found in file order; whitespace and typographic punctuation differences are tolerated when matching, ' +
    "and only the changed lines are rewritten (line endings, BOM and encoding are kept). Paths are relative to the workspace root.",
  mutates: true,
  schema: applyPatchSchema,
  run: (args, ctx) => applyPatch(ctx, args.patch, { dryRun: args.dry_run === true }),
});
