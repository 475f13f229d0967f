import { s, ToolError } from '../../contract/index.js';
import type { ChangedFile } from '../../workspace/change-log.js';
import type { FileStep } from '../../workspace/file-writer.js';
import type { HunkSource } from '../../workspace/review/hunks.js';
import { revertHunks } from '../../workspace/review/revert.js';
import { defineTool, DESTRUCTIVE } from '../schema/define.js';
import type { ToolRunContext } from '../schema/define.js';

/** Where a rejected hunk's lines are once it is reverted. */
export interface RevertedHunk {
  id: string;
  path: string;
  /** the lines the old text fills now, 1-based (an empty range: the place where lines were removed) */
  start_line: number;
  end_line: number;
}

/**
 * Take hunks back out of their files as one new change through the one write path: every file is
 * read under its lock, every hunk located first, and only when all of them still apply is
 * anything written (otherwise PATCH_CONFLICT, nothing changed). The reviewer's write does not
 * count as the agent's read, so the agent's next change to such a file must read it again.
 * Not offered to models: the workspace's `review.reject` runs it.
 */
export function rejectHunksTool(sources: HunkSource[]) {
  return defineTool({
    name: 'review_reject',
    title: 'Reject hunks',
    description: 'Revert the given hunks of recorded changes as a new change.',
    mutates: true,
    annotations: DESTRUCTIVE,
    schema: s.object({}),
    resultSchema: s.object({ change_id: s.string(), files: s.array(s.string()) }),
    async run(_args, ctx) {
      const byPath = new Map<string, HunkSource[]>();
      for (const source of sources) byPath.set(source.hunk.path, [...(byPath.get(source.hunk.path) ?? []), source]);
      const paths = [...byPath.keys()].sort();
      return ctx.lock(paths, async () => {
        const steps: FileStep[] = [];
        const files: ChangedFile[] = [];
        for (const rel of paths) {
          const current = await readCurrent(ctx, rel);
          const text = revertHunks(current?.text ?? null, byPath.get(rel)!);
          if (text === null) steps.push({ kind: 'remove', rel });
          else {
            const path = current?.path ?? (await ctx.resolve(rel, 'write'));
            const bytes = ctx.encode(path, text, current?.encoding ?? 'utf-8', current?.bom ?? false);
            steps.push({ kind: 'write', rel: path.realRel, bytes });
          }
          files.push({ path: rel, before: current?.text ?? null, after: text });
        }
        ctx.throwIfCancelled();
        const change = await ctx.applySteps(steps, files);
        return { change_id: change!.id, files: paths };
      });
    },
  });
}

async function readCurrent(ctx: ToolRunContext, rel: string) {
  const path = await ctx.resolve(rel, 'write');
  if (!path.stat) return null;
  try {
    return await ctx.readText(path);
  } catch (error) {
    if (error instanceof ToolError && error.code === 'NOT_FOUND') return null;
    throw error;
  }
}
