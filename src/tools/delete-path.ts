import type { ChangedFile } from '../workspace/change-log.js';
import type { ToolRunContext as ToolContext } from './define.js';
import { s, ToolError } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { filesUnder, removeTree } from '../workspace/tree.js';
import { pathProperty } from './common.js';
import { confirmOrRefuse } from './confirm.js';
import { defineTool, DESTRUCTIVE_IDEMPOTENT } from './define.js';
import { changeIdResult } from './result-schemas.js';
import { textForLog } from './text-for-log.js';

/** Where a folder goes in one rename before it is emptied, so a failure never leaves half of it. */
const TRASH = '.sandpit/trash';

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
      if (path.rel === '') throw new ToolError('PERMISSION_DENIED', 'the workspace root cannot be deleted', { hint: 'Delete the entries inside it one by one.' });
      if (!path.stat) throw new ToolError('NOT_FOUND', `'${shown}' does not exist`, { hint: 'Check the name with list_directory or glob.' });
      const isDir = path.stat.type === 'dir';
      const removed = isDir ? await filesUnder(ctx.fs, ctx.paths, path.rel) : [path.rel];
      if (isDir && !args.recursive) {
        throw new ToolError(removed.length ? 'DIRECTORY_NOT_EMPTY' : 'NOT_A_FILE', `'${shown}' is a directory${removed.length ? ` holding ${removed.length} files` : ''}`, {
          hint: 'Set recursive: true to delete the directory and everything in it.',
        });
      }
      await confirmOrRefuse(ctx, [shown], 'delete');
      const files: ChangedFile[] = [];
      for (const file of removed) files.push({ path: file, before: await textForLog(ctx, file), after: null });
      if (isDir) await deleteFolder(ctx, path.abs, shown);
      else await ctx.fs.unlink(path.abs).catch((e) => { throw toToolError(e, shown); });
      ctx.ledger.forget(path.rel);
      const change = ctx.recordChange(files);
      return { path: shown, deleted: true, files_deleted: removed.length, change_id: change.id };
    });
  },
});

async function deleteFolder(ctx: ToolContext, abs: string, shown: string): Promise<void> {
  const trash = ctx.paths.toAbs(TRASH);
  const parked = `${trash}/${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  try {
    await ctx.fs.mkdir(trash, { recursive: true });
    await ctx.fs.rename(abs, parked);
  } catch (error) {
    throw toToolError(error, shown);
  }
  // The folder is already gone from the workspace; a failure while emptying the trash loses nothing.
  await removeTree(ctx.fs, parked).catch(() => {});
}
