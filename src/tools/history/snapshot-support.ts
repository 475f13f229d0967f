import { decodeText, isDecodeFailure } from '../../text/codec.js';
import type { ChangedFile } from '../../workspace/change-log.js';
import type { ToolRunContext as ToolContext } from '../schema/define.js';
import { ToolError, type Infer } from '../../contract/index.js';
import type { snapshotResult } from '../schema/result-schemas.js';
import type { SnapshotInfo } from '../../snapshots/history.js';
import type { RestoredFile, RestoreOutcome } from '../../snapshots/restore.js';
import type { SnapshotStore } from '../../snapshots/store.js';
import type { ProcessRunner } from '../../process/process-runner.js';

/** The store, or NOT_SUPPORTED when the workspace was created with snapshots off. */
export function requireSnapshots(ctx: ToolContext): SnapshotStore {
  if (!ctx.snapshots) {
    throw new ToolError('NOT_SUPPORTED', 'snapshots are turned off for this workspace', {
      hint: 'Nothing can be listed, diffed or undone here; keep your own copies before risky changes.',
    });
  }
  return ctx.snapshots;
}

/** A snapshot as list_snapshots and snapshot show it to the model. */
export function describeSnapshot(s: SnapshotInfo, store: SnapshotStore): Infer<typeof snapshotResult> {
  const restored = s.restored_to ? store.history.find(s.restored_to) : undefined;
  return {
    id: s.id,
    message: s.message,
    created_at: s.created_at,
    files_changed: s.files_changed,
    ...(s.tool ? { tool: s.tool } : {}),
    ...(s.change_id ? { change_id: s.change_id } : {}),
    ...(s.restored_to ? { restored_to: typeof restored === 'object' ? restored.id : s.restored_to.slice(0, 12) } : {}),
    ...(s.undo ? { undo: true as const } : {}),
    ...(s.skipped.length ? { skipped: s.skipped } : {}),
  };
}

/**
 * What undo and restore_snapshot both answer about a restore, after recording it in the change
 * log: the files it rewrote (the first MAX_LISTED), their exact count, its snapshot and change id.
 */
export function recordRestore(
  ctx: ToolContext,
  out: RestoreOutcome,
): { restored_files: string[]; files_changed: number; snapshot: string; change_id: string } {
  const change = ctx.recordChange(restoredChanges(out.files));
  return {
    restored_files: out.files.slice(0, MAX_LISTED).map((f) => f.path),
    files_changed: out.files.length,
    snapshot: out.snapshot.id,
    change_id: change.id,
  };
}

/** Restored files as the change log keeps them: text where it decodes, else unrecorded. */
function restoredChanges(files: RestoredFile[]): ChangedFile[] {
  return files.map((f) => ({ path: f.path, before: text(f.before), after: text(f.after) }));
}

function text(bytes: Uint8Array | null): string | null | undefined {
  if (bytes === null) return null;
  const decoded = decodeText(bytes);
  return isDecodeFailure(decoded) ? undefined : decoded.text;
}

/** At most this many paths are listed in a restore's result; the count is always exact. */
const MAX_LISTED = 200;

/**
 * After a restore put back a package-lock.json, node_modules (which snapshots leave out) follows
 * it: the runner that owns `npm` reinstalls the lock's tree from the tarball cache, in the same
 * call and under the same lock, so an install and its undo are one step each. Gives what that did
 * for the result, or why node_modules was left as it was.
 */
export async function syncRestoredPackages(
  runner: ProcessRunner | undefined,
  ctx: ToolContext,
  files: RestoredFile[],
): Promise<{ packages?: string }> {
  const folders = files
    .map((f) => f.path)
    .filter((p) => /(^|\/)package-lock\.json$/.test(p) && !p.split('/').includes('node_modules'))
    .map((p) => p.slice(0, Math.max(p.lastIndexOf('/'), 0)));
  if (!folders.length || !runner?.syncPackages) return {};
  try {
    const lines = await runner.syncPackages(folders, (steps) =>
      ctx.writer.apply(steps, { locked: true, noteForSnapshot: false }),
    );
    return lines.length ? { packages: lines.join('\n') } : {};
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      packages: `node_modules was left as it was (${why}); run \`npm install\` to bring it in line with the lock`,
    };
  }
}
