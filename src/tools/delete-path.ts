import type { ChangedFile } from '../workspace/change-log.js';
import { PASSAGES, s, ToolError, words } from '../contract/index.js';
import { filesUnder } from '../workspace/tree.js';
import { pathProperty } from './common.js';
import { confirmOrRefuse } from './confirm.js';
import { defineTool, DESTRUCTIVE_IDEMPOTENT } from './schema/define.js';
import { changeIdResult } from './schema/result-schemas.js';
import { textForLog } from './text-for-log.js';

export const deletePath = defineTool({
  name: 'delete_path',
  title: 'Delete path',
  description:
    'Delete a file, a link (not its target) or, with recursive: true, a directory and everything in it. ' +
    'The workspace may ask the user to confirm first (CONFIRMATION_DENIED when refused). Deletions can be undone from snapshots.',
  mutates: true,
  annotations: DESTRUCTIVE_IDEMPOTENT,
  schema: s.object({
    path: pathProperty('The path to delete'),
    recursive: s.optional(s.boolean({ default: false, description: 'Required to delete a directory.' })),
  }),
  resultSchema: s.object({
    path: s.string(),
    deleted: s.boolean(),
    files_deleted: s.integer({ description: 'Files removed (those inside a folder included).' }),
    change_id: changeIdResult,
  }),
  async run(args, ctx) {
    return ctx.withPath(args.path, 'entry', async (path, shown) => {
      if (path.rel === '')
        throw new ToolError('PERMISSION_DENIED', 'the workspace root cannot be deleted', {
          hint: 'Delete the entries inside it one by one.',
        });
      if (!path.stat)
        throw new ToolError('NOT_FOUND', `'${shown}' does not exist`, {
          hint: words`Check the name with ${PASSAGES.listOrGlob}.`,
        });
      const isDir = path.stat.type === 'dir';
      const removed = isDir ? await filesUnder(ctx.fs, ctx.paths, path.rel) : [path.rel];
      if (isDir && !args.recursive) {
        throw new ToolError(
          removed.length ? 'DIRECTORY_NOT_EMPTY' : 'NOT_A_FILE',
          `'${shown}' is a directory${removed.length ? ` holding ${removed.length} files` : ''}`,
          {
            hint: 'Set recursive: true to delete the directory and everything in it.',
          },
        );
      }
      for (const rel of removed) ctx.writer.checkProtected(rel);
      await confirmOrRefuse(ctx, [shown], 'delete', { required: ctx.policy.alwaysConfirmDeletes });
      const files: ChangedFile[] = [];
      for (const file of removed) files.push({ path: file, before: await textForLog(ctx, file), after: null });
      const change = (await ctx.applySteps([{ kind: isDir ? 'remove-tree' : 'remove', rel: path.realRel }], files))!;
      ctx.ledger.forget(path.rel);
      return { path: shown, deleted: true, files_deleted: removed.length, change_id: change.id };
    });
  },
});
