import { fileSha256 } from '../workspace/sha-cache.js';
import type { ChangedFile } from '../workspace/change-log.js';
import { PASSAGES, s, ToolError, words } from '../contract/index.js';
import { toToolError } from '../fs/tool-error.js';
import { displayPath, lexicalPath } from '../workspace/paths.js';
import { filesUnder } from '../workspace/tree.js';
import { pathProperty } from './common.js';
import { confirmOrRefuse } from './confirm.js';
import { defineTool, DESTRUCTIVE } from './schema/define.js';
import { changeIdResult } from './schema/result-schemas.js';
import { textForLog } from './text-for-log.js';

export const movePath = defineTool({
  name: 'move_path',
  title: 'Move or rename',
  description:
    'Move or rename a file, directory or link without reading its contents. Missing parent folders of `to` are created. ' +
    'An existing file at `to` is replaced only with overwrite: true; an existing directory is never replaced (name the full target path instead).',
  mutates: true,
  annotations: DESTRUCTIVE,
  schema: s.object({
    from: pathProperty('The path to move'),
    to: pathProperty('The new path'),
    overwrite: s.optional(s.boolean({ default: false, description: 'Replace an existing file at `to`.' })),
  }),
  resultSchema: s.object({ from: s.string(), to: s.string(), change_id: changeIdResult }),
  async run(args, ctx) {
    const fromRel = lexicalPath(args.from, ctx.cwd);
    const toRel = lexicalPath(args.to, ctx.cwd);
    return ctx.lock([fromRel, toRel], async () => {
      const from = await ctx.resolve(args.from, 'entry');
      const to = await ctx.resolve(args.to, 'write');
      const fromShown = displayPath(from.rel);
      const toShown = displayPath(to.rel);
      if (!from.stat)
        throw new ToolError('NOT_FOUND', `'${fromShown}' does not exist`, {
          hint: words`Check the name with ${PASSAGES.listOrGlob}.`,
        });
      if (from.rel === '' || to.rel === '')
        throw new ToolError('PERMISSION_DENIED', 'the workspace root cannot be moved or replaced');
      if (from.rel === to.rel)
        throw new ToolError('INVALID_ARGUMENTS', `'${fromShown}' and '${toShown}' are the same path`);
      if (to.rel.startsWith(`${from.rel}/`))
        throw new ToolError('INVALID_ARGUMENTS', `'${fromShown}' cannot be moved inside itself`);
      if (to.stat) {
        if (to.stat.type === 'dir' || from.stat.type === 'dir') {
          throw new ToolError(
            'ALREADY_EXISTS',
            `'${toShown}' already exists${to.stat.type === 'dir' ? ' as a directory' : ''}`,
            {
              hint: `To move into a directory, give the full new path, e.g. '${toShown}/${from.rel.split('/').pop()}'.`,
            },
          );
        }
        if (!args.overwrite)
          throw new ToolError('ALREADY_EXISTS', `'${toShown}' already exists`, {
            hint: 'Set overwrite: true to replace it.',
          });
        const targetBytes = await ctx.fs.readFile(to.abs).catch((e) => {
          throw toToolError(e, toShown);
        });
        ctx.checkWritable(to, await fileSha256(ctx.fs, to.abs, targetBytes));
        await confirmOrRefuse(ctx, [toShown], 'overwrite');
      }
      const moved = from.stat.type === 'dir' ? await filesUnder(ctx.fs, ctx.paths, from.rel) : [from.rel];
      const files: ChangedFile[] = [];
      for (const rel of moved) {
        const dest = to.rel + rel.slice(from.rel.length);
        const text = from.stat.type === 'dir' ? undefined : await textForLog(ctx, rel);
        const before = to.stat ? await textForLog(ctx, to.rel) : text;
        files.push({ path: dest, from: rel, before, after: text });
      }
      for (const rel of moved) ctx.writer.checkProtected(rel);
      const change = (await ctx.applySteps([{ kind: 'move', from: from.realRel, to: to.realRel }], files))!;
      ctx.ledger.forget(to.rel);
      ctx.ledger.move(from.rel, to.rel);
      return { from: fromShown, to: toShown, change_id: change.id };
    });
  },
});
