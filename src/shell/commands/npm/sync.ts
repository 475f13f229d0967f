import { defaultTarballCache } from '../../../packages/cache.js';
import { PackageError } from '../../../packages/errors.js';
import { planInstall } from '../../../packages/install.js';
import type { WorkspaceFs } from '../../../fs/types.js';
import { type ApplySteps, applyBufferedChanges } from '../../apply.js';
import type { PackageSettings } from '../../context.js';
import { ShellFs } from '../../overlay.js';
import { applyPlan, projectReader } from './install.js';

/** No request leaves during a sync: every tarball must come from the cache. */
const offline: typeof fetch = async (input) => {
  const url = String(input);
  throw new PackageError(
    'NOT_FOUND',
    url.slice(url.lastIndexOf('/') + 1),
    'is not in the tarball cache, and node_modules is brought back without the network',
    'Run `npm install` to fetch it.',
  );
};

/**
 * Bring each folder's node_modules in line with its package-lock.json (absent: no packages), from
 * the tarball cache only, as an undo or a restore that put back a lock needs: snapshots leave
 * node_modules out, and the lock and the cache are what bring it back. Every folder is planned in
 * full before anything is written, and all of it goes to `apply` at once, so a package missing
 * from the cache leaves node_modules as it was. Gives one line per folder for the tool's result.
 */
export async function syncNodeModules(
  fs: WorkspaceFs,
  root: string,
  folders: string[],
  settings: PackageSettings,
  apply: ApplySteps,
): Promise<string[]> {
  const overlay = new ShellFs(fs, root);
  const lines: string[] = [];
  for (const folder of folders) {
    const at = `/${folder}`;
    const plan = await planInstall(
      projectReader(overlay, at),
      { kind: 'sync' },
      {
        ...(settings.registry ? { registry: settings.registry } : {}),
        cache: settings.cache ?? defaultTarballCache(),
        fetch: offline,
      },
    );
    await applyPlan(overlay, at, plan);
    const counts = [
      plan.added.length ? `added ${plan.added.length}` : '',
      plan.removed.length ? `removed ${plan.removed.length}` : '',
      plan.changed.length ? `changed ${plan.changed.length}` : '',
    ].filter(Boolean);
    if (counts.length)
      lines.push(
        `${folder ? `${folder}/` : ''}node_modules: ${counts.join(', ')} (from the lock and the tarball cache)`,
      );
  }
  const toAbs = (rel: string) => (rel === '' ? root : `${root === '/' ? '' : root}/${rel}`);
  await applyBufferedChanges(fs, toAbs, overlay.changes(), apply);
  return lines;
}
