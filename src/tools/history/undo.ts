import { restoreSnapshot } from '../../snapshots/restore.js';
import { recordRestore, requireSnapshots, syncRestoredPackages } from './snapshot-support.js';
import type { ProcessRunner } from '../../process/process-runner.js';
import { s, ToolError } from '../../contract/index.js';
import { defineTool, DESTRUCTIVE, runsPrograms } from '../schema/define.js';
import { restoreResults } from '../schema/result-schemas.js';

const undoOver = (runner?: ProcessRunner) =>
  defineTool({
    name: 'undo',
    title: 'Undo',
    description:
      'Undo the last change (or the last `steps` changes): the workspace goes back to the snapshot before them. ' +
      'Repeated undos keep going back. The undo is itself a snapshot; to redo, call restore_snapshot with the id in redo_with.',
    mutates: true,
    annotations: DESTRUCTIVE,
    schema: s.object({
      steps: s.optional(s.integer({ minimum: 1, maximum: 1000, description: 'How many changes to undo (default 1).' })),
    }),
    resultSchema: s.object({
      restored_to: s.string({ description: 'The snapshot the workspace is back at.' }),
      ...restoreResults,
      redo_with: s.string({ description: 'Give this id to restore_snapshot to redo.' }),
    }),
    async run(args, ctx) {
      const store = requireSnapshots(ctx);
      const steps = args.steps ?? 1;
      return ctx.lock([''], async () => {
        const out = await restoreSnapshot(
          store,
          ctx.writer,
          () => {
            const back = store.history.back(steps);
            if ('target' in back) return back.target;
            throw new ToolError(
              'NOT_FOUND',
              back.available === 0
                ? 'there is nothing to undo: the workspace is at its oldest snapshot'
                : `only ${back.available} step(s) can be undone, not ${steps}`,
              {
                hint:
                  back.available === 0
                    ? 'list_snapshots shows the history kept.'
                    : `Call undo with steps: ${back.available}.`,
              },
            );
          },
          { message: `undo ${steps} step(s)`, tool: 'undo', undo: true },
        );
        const packages = await syncRestoredPackages(runner, ctx, out.files);
        const { change_id, ...restored } = recordRestore(ctx, out);
        return { restored_to: out.target.id, ...restored, ...packages, redo_with: out.previous.id, change_id };
      });
    },
  });

/** undo; bound to the workspace's runner, which brings node_modules back with a lock it restores. */
export const undoTool = runsPrograms(undoOver);
