import type { WorkspaceFs } from '../fs/types.js';
import type { ChangedFile } from '../workspace/change-log.js';
import type { ObjectOf } from '../contract/index.js';
import type { FindExternalChanges, ToolRunContext as ToolContext } from './schema/define.js';
import type { externalChangeResults } from './schema/result-schemas.js';

export type { FindExternalChanges };

/** Most changed paths a result lists; the change log keeps them all. */
const MAX_LISTED = 100;

/**
 * The change-log entry for files a program changed. Their earlier text is not known here (the
 * snapshots hold it), so only a deletion can be told apart from an addition or an edit.
 */
export async function describeExternalChanges(
  fs: WorkspaceFs,
  toAbs: (rel: string) => string,
  paths: string[],
): Promise<ChangedFile[]> {
  return Promise.all(
    paths.map(async (path): Promise<ChangedFile> => {
      const exists = await fs.lstat(toAbs(path)).then(
        () => true,
        () => false,
      );
      return { path, before: undefined, after: exists ? undefined : null };
    }),
  );
}

/** The result's fields for a change: its paths (the first ones when there are many) and its id. */
function listed(changed: string[], changeId: string): ObjectOf<typeof externalChangeResults> {
  return {
    changed_files: changed.slice(0, MAX_LISTED),
    ...(changed.length > MAX_LISTED ? { changed_files_total: changed.length } : {}),
    change_id: changeId,
  };
}

/**
 * After a runner that wrote only through the workspace's write path (the built-in shell): the
 * files it reports are the call's change, so the snapshot after the call holds them under the
 * tool's name and change id. A rescan would commit them first as an anonymous "found by rescan".
 */
export function recordKnownChanges(ctx: ToolContext, files: ChangedFile[]): ObjectOf<typeof externalChangeResults> {
  if (files.length === 0) return {};
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return listed(
    sorted.map((f) => f.path),
    ctx.recordChange(sorted).id,
  );
}

/** After a foreground program: rescan, log what it changed as this call's change, and say so in the result. */
export async function recordExternalChanges(
  ctx: ToolContext,
  find?: FindExternalChanges,
  known: ChangedFile[] = [],
): Promise<ObjectOf<typeof externalChangeResults>> {
  const changed = find ? await find().catch(() => []) : [];
  if (changed.length === 0) return {};
  // Where the program said what it changed (the browser shell), the log gets real before and after text.
  const byPath = new Map(known.map((f) => [f.path, f]));
  const described = await describeExternalChanges(
    ctx.fs,
    (rel) => ctx.paths.toAbs(rel),
    changed.filter((p) => !byPath.has(p)),
  );
  const summary = ctx.recordChange([...changed.filter((p) => byPath.has(p)).map((p) => byPath.get(p)!), ...described]);
  return listed(changed, summary.id);
}
