import type { FileDiff } from './diff-view.js';

/** One package an install added, removed or moved to another version. */
export interface PackageChange {
  name: string;
  /** where it sits: `node_modules/a` or, nested on a conflict, `node_modules/b/node_modules/a` */
  location: string;
  kind: 'added' | 'removed' | 'changed';
  from?: string;
  to?: string;
}

const IN_NODE_MODULES = /(^|\/)node_modules\//;
const PACKAGE_JSON = /^((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/]+)\/package\.json$/;
const LOCK_KEY = /^\s*"((?:.*\/)?node_modules\/(?:@[^/]+\/)?[^/"]+)": \{\s*$/;
const VERSION = /^\s*"version": "([^"]+)",?\s*$/;

/** True for a file an install writes: anything under node_modules. */
export const isInstalledFile = (path: string) => IN_NODE_MODULES.test(path);

const nameOf = (location: string) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);

/**
 * The packages a change added, removed or changed, read from its diff alone: the versions in
 * `package-lock.json`'s hunks (npm writes each package's "version" right under its key) and in
 * any `node_modules/<name>/package.json` the change touched. Empty when no package moved.
 */
export function packageChanges(files: FileDiff[]): PackageChange[] {
  const before = new Map<string, string>();
  const after = new Map<string, string>();
  for (const file of files) {
    const path = file.to === '/dev/null' ? file.from : file.to;
    const manifest = PACKAGE_JSON.exec(path);
    if (manifest) readManifestHunks(file, manifest[1]!, before, after);
    else if (/(^|\/)package-lock\.json$/.test(path)) readLockHunks(file, before, after);
  }
  const changes: PackageChange[] = [];
  for (const location of new Set([...before.keys(), ...after.keys()])) {
    const from = before.get(location);
    const to = after.get(location);
    if (from === to) continue;
    const kind = from === undefined ? 'added' : to === undefined ? 'removed' : 'changed';
    changes.push({ name: nameOf(location), location, kind, ...(from ? { from } : {}), ...(to ? { to } : {}) });
  }
  return changes.sort((a, b) => a.location.localeCompare(b.location));
}

/** A package's own package.json: its "version" line on each side. */
function readManifestHunks(file: FileDiff, location: string, before: Map<string, string>, after: Map<string, string>) {
  for (const line of file.hunks.flatMap((hunk) => hunk.lines)) {
    const version = VERSION.exec(line.text)?.[1];
    if (!version) continue;
    if (line.kind !== 'add') before.set(location, version);
    if (line.kind !== 'del') after.set(location, version);
  }
}

/** The lock: a version line right under a package key, tracked on each side of the diff. */
function readLockHunks(file: FileDiff, before: Map<string, string>, after: Map<string, string>) {
  for (const hunk of file.hunks) {
    let oldKey: string | undefined;
    let newKey: string | undefined;
    for (const line of hunk.lines) {
      const key = LOCK_KEY.exec(line.text)?.[1];
      const version = VERSION.exec(line.text)?.[1];
      if (line.kind !== 'add') {
        if (version && oldKey) before.set(oldKey, version);
        oldKey = key;
      }
      if (line.kind !== 'del') {
        if (version && newKey) after.set(newKey, version);
        newKey = key;
      }
    }
  }
}
