import { restoreSnapshot } from '../../snapshots/restore.js';
import { recordRestore, requireSnapshots, syncRestoredPackages } from './snapshot-support.js';
import type { ProcessRunner } from '../../process/process-runner.js';
import { s } from '../../contract/index.js';
import { defineTool, DESTRUCTIVE_IDEMPOTENT, runsPrograms } from '../schema/define.js';
import { restoreResults } from '../schema/result-schemas.js';

const restoreOver = (runner?: ProcessRunner) =>
  defineTool({
    name: 'restore_snapshot',
    title: 'Restore snapshot',
    description:
      'Bring the workspace back to a snapshot from list_snapshots: files are written back byte for byte and files that ' +
      'did not exist then are removed. The restore is itself a snapshot, so undo reverses it; restoring a snapshot ' +
      'that was undone is redo.',
    mutates: true,
    annotations: DESTRUCTIVE_IDEMPOTENT,
    schema: s.object({
      id: s.string({
        minLength: 4,
        maxLength: 40,
        pattern: '^[0-9a-fA-F]+$',
        description: 'The snapshot id (or a unique prefix of it).',
      }),
    }),
    resultSchema: s.object({ id: s.string({ description: 'The snapshot brought back.' }), ...restoreResults }),
    async run(args, ctx) {
      const store = requireSnapshots(ctx);
      return ctx.lock([''], async () => {
        const out = await restoreSnapshot(store, ctx.writer, () => store.find(args.id), {
          message: `restore_snapshot: back to ${args.id.slice(0, 12)}`,
          tool: 'restore_snapshot',
        });
        const packages = await syncRestoredPackages(runner, ctx, out.files);
        return { id: out.target.id, ...recordRestore(ctx, out), ...packages };
      });
    },
  });

/** restore_snapshot; bound to the workspace's runner, which brings node_modules back with a lock it restores. */
export const restoreSnapshotTool = runsPrograms(restoreOver);
