import type { LockEntry } from './types.js';

/** A file an install writes, relative to the project folder. */
export interface PlannedFile {
  path: string;
  data: Uint8Array;
  executable: boolean;
}

/** A package the install added, removed or changed, for the summary. */
export interface PackageChange {
  name: string;
  location: string;
  version: string;
  /** the version it had, for a changed package */
  from?: string;
}

/**
 * What an install will do, computed in full (every tarball fetched and checked) before anything
 * is written, so a failure leaves the project as it was. The caller applies it as one change.
 */
export interface InstallPlan {
  /** package.json's new text, when the command changed it */
  packageJson?: string;
  /** package-lock.json's new text (absent for `npm ci`, which leaves the lock as it is) */
  lock?: string;
  /** `node_modules/.package-lock.json`'s new text; null: node_modules holds no package, remove it */
  hiddenLock: string | null;
  /** clear node_modules first (`npm ci`) */
  clearAll: boolean;
  /** package folders to empty before their new files land (their own node_modules is kept) */
  clear: string[];
  /** package folders no longer in the tree, removed whole */
  remove: string[];
  /** `.bin` folders rewritten whole */
  binFolders: string[];
  files: PlannedFile[];
  added: PackageChange[];
  removed: PackageChange[];
  changed: PackageChange[];
  /** `name@version` of packages with install scripts, which were not run */
  installScripts: string[];
  /** optional packages left out because their `os`/`cpu` do not match */
  skipped: string[];
  /** packages in the final tree */
  total: number;
  /** bytes fetched over the network (0 for an install from the cache) */
  fetchedBytes: number;
}

/** Whether a lock entry and a previous one describe the same package contents. */
export function sameContents(a: LockEntry | undefined, b: LockEntry | undefined): boolean {
  return !!a && !!b && a.version === b.version && (a.integrity ?? a.resolved) === (b.integrity ?? b.resolved);
}
