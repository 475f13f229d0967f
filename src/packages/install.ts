import { binLinks, binShim } from './bins.js';
import { buildIdealTree } from './build-tree.js';
import { defaultTarballCache, type TarballCache } from './cache.js';
import { PackageError } from './errors.js';
import { fetchPackage } from './fetch-tarball.js';
import { lockOfTree, rootNode, treeFromLock } from './lockfile.js';
import { hasInstallScript, hostPlatform, platformAllows, type Platform } from './manifest-entry.js';
import { manifestText, parseRequest, savedRange, type SaveField, withRemoved, withSaved } from './package-json.js';
import { pickVersion } from './pick.js';
import { type InstallPlan, type PackageChange, type PlannedFile, sameContents } from './plan.js';
import { eachLimited } from './pool.js';
import { DEFAULT_REGISTRY, RegistryClient, registryFromNpmrc } from './registry.js';
import { allNodes, type TreeNode } from './tree.js';
import type { InstallProgress, Lockfile, LockEntry, ProjectManifest } from './types.js';

/** How an install reads the project: text of a project-relative file, or null when absent. */
export interface ProjectReader {
  readText(path: string): Promise<string | null>;
}

/**
 * What to do: `install` (adding `add` when given), `ci` from the lock, `uninstall` of names, or
 * `sync`: bring node_modules in line with package-lock.json as it stands (none: nothing installed),
 * changing neither file, as after an undo put back an earlier lock.
 */
export type InstallCommand =
  | { kind: 'install'; add?: string[]; saveTo?: SaveField }
  | { kind: 'ci' }
  | { kind: 'uninstall'; names: string[] }
  | { kind: 'sync' };

/** The hidden lockfile npm keeps of what node_modules holds. */
export const HIDDEN_LOCK = 'node_modules/.package-lock.json';

/** Options of an install; only `registry` and `fetch` decide where requests go. */
export interface InstallOptions {
  /** the registry URL; else `.npmrc`'s `registry=`, else the public registry */
  registry?: string;
  fetch?: typeof fetch;
  /** where tarballs are kept (default: Cache Storage in a browser, memory elsewhere) */
  cache?: TarballCache;
  /** the `os`/`cpu` packages are checked against (default: the host's; `browser` in a browser) */
  platform?: Platform;
  onProgress?: (progress: InstallProgress) => void;
  /** tarballs fetched at once (default 16) */
  concurrency?: number;
}

const parseJson = <T>(text: string | null, file: string): T | null => {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new PackageError('INVALID_ARGUMENTS', file, 'is not valid JSON');
  }
};

/** The registry an install talks to: the option, else `.npmrc`, else the public one. */
export async function registryFor(reader: ProjectReader, option?: string): Promise<string> {
  return option ?? registryFromNpmrc((await reader.readText('.npmrc')) ?? '') ?? DEFAULT_REGISTRY;
}

/**
 * Work out an install in full: resolve the tree, fetch and check every tarball it needs, and
 * give the files, the lock and the summary. Nothing is written here; a failure throws a
 * PackageError naming the package and why, and the project stays as it was.
 */
export async function planInstall(
  reader: ProjectReader,
  command: InstallCommand,
  options: InstallOptions = {},
): Promise<InstallPlan> {
  const fetchFn = options.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const registry = new RegistryClient(await registryFor(reader, options.registry), fetchFn);
  const platform = options.platform ?? hostPlatform();
  const cache = options.cache ?? defaultTarballCache();
  const manifestSource = await reader.readText('package.json');
  let manifest = parseJson<ProjectManifest>(manifestSource, 'package.json');
  if (!manifest && command.kind !== 'install')
    throw new PackageError('NOT_FOUND', 'package.json', 'there is no package.json in this folder');
  manifest ??= {};
  const oldLock = parseJson<Lockfile>(await reader.readText('package-lock.json'), 'package-lock.json');
  // What node_modules holds: npm's hidden lockfile, else (a tree installed before it was written) the
  // lock, each entry only where its folder holds that version. npm drops the hidden lockfile once a
  // folder it lists is gone and reads the folders instead; reading each listed folder comes to the same.
  const hidden = command.kind === 'ci' ? null : await readHiddenLock(reader);
  const installed: Record<string, LockEntry> =
    command.kind === 'ci' ? {} : await presentOf(reader, hidden ?? withoutRoot(oldLock?.packages ?? {}));
  const progress = { phase: 'resolving' as InstallProgress['phase'], done: 0, total: 0, bytes: 0 };
  const tell = () => options.onProgress?.({ ...progress });

  if (command.kind === 'install' && command.add?.length) {
    for (const request of command.add.map(parseRequest)) {
      const chosen = pickVersion(await registry.packument(request.name), request.spec);
      manifest = withSaved(
        manifest,
        request.name,
        savedRange(request.spec, chosen.version),
        command.saveTo ?? 'dependencies',
      );
    }
  }
  if (command.kind === 'uninstall') for (const name of command.names) manifest = withRemoved(manifest, name);

  let root: TreeNode;
  if (command.kind === 'ci') {
    if (!oldLock?.packages)
      throw new PackageError(
        'NOT_FOUND',
        'package-lock.json',
        '`npm ci` needs a package-lock.json',
        'Run `npm install` first.',
      );
    checkLockMatches(manifest, oldLock);
    root = treeFromLock(manifest, oldLock);
  } else if (command.kind === 'sync') {
    root = oldLock?.packages ? treeFromLock(manifest, oldLock) : rootNode(manifest);
  } else {
    root = oldLock?.packages ? treeFromLock(manifest, oldLock) : rootNode(manifest);
    await buildIdealTree(root, {
      registry,
      platform,
      onResolved: (done, known) => {
        progress.done = done;
        progress.total = known;
        tell();
      },
    });
  }

  const nodes = allNodes(root).filter((n) => n !== root);
  const installable = nodes.filter((n) => platformAllows(n.entry, platform));
  const skipped = nodes.filter((n) => !installable.includes(n)).map((n) => `${n.name}@${n.entry.version}`);
  const toFetch: TreeNode[] = [];
  for (const node of installable) {
    const old = installed[node.location];
    if (old && sameContents(old, node.entry)) {
      carryMetadata(node.entry, old);
      continue;
    }
    toFetch.push(node);
  }

  const files: PlannedFile[] = [];
  const installScripts: string[] = [];
  progress.phase = 'fetching';
  progress.done = 0;
  progress.total = toFetch.length;
  tell();
  await eachLimited(toFetch, options.concurrency ?? 16, async (node) => {
    const label = `${node.name}@${node.entry.version}`;
    if (!node.entry.resolved)
      throw new PackageError('INVALID_ARGUMENTS', label, 'the lock gives no `resolved` URL for it');
    const fetched = await fetchPackage(
      {
        name: node.name,
        version: node.entry.version ?? '',
        resolved: node.entry.resolved,
        integrity: node.entry.integrity,
      },
      cache,
      fetchFn,
    );
    node.entry.integrity ??= fetched.integrity;
    const own = fetched.files.find((f) => f.path === 'package.json');
    const pkg = own
      ? (JSON.parse(new TextDecoder().decode(own.data)) as { license?: unknown; scripts?: Record<string, string> })
      : {};
    if (typeof pkg.license === 'string' && command.kind !== 'ci') node.entry.license = pkg.license;
    const gyp = fetched.files.some((f) => f.path === 'binding.gyp');
    if ((hasInstallScript(pkg) || gyp) && command.kind !== 'ci') node.entry.hasInstallScript = true;
    for (const file of fetched.files)
      files.push({ path: `${node.location}/${file.path}`, data: file.data, executable: file.executable });
    progress.done++;
    progress.bytes += fetched.fetchedBytes;
    tell();
  });
  for (const node of installable)
    if (node.entry.hasInstallScript) installScripts.push(`${node.name}@${node.entry.version}`);

  const links = binLinks(installable);
  const encoder = new TextEncoder();
  for (const link of links)
    files.push({ path: link.path, data: encoder.encode(binShim(link.target)), executable: true });
  const keepsLock = command.kind === 'ci' || command.kind === 'sync';
  const lock = keepsLock ? (oldLock ?? lockOfTree(root)) : lockOfTree(root);
  // What node_modules will hold: the lock's entries less those left out for their platform.
  const unpacked = new Set(installable.map((n) => n.location));
  const newEntries = Object.fromEntries(Object.entries(lock.packages).filter(([l]) => unpacked.has(l)));
  // Counted as npm counts: what node_modules held against what it will hold.
  const summary = summarise(installed, newEntries, command.kind === 'ci');
  const packageJson =
    !keepsLock && JSON.stringify(manifest) !== JSON.stringify(parseJson(manifestSource, 'package.json'))
      ? manifestText(manifest, manifestSource)
      : undefined;
  return {
    ...(packageJson !== undefined ? { packageJson } : {}),
    ...(keepsLock ? {} : { lock: `${JSON.stringify(lock, null, 2)}\n` }),
    hiddenLock: installable.length ? hiddenLockText(lock, newEntries) : null,
    clearAll: command.kind === 'ci',
    clear: toFetch.map((n) => n.location),
    remove: Object.keys(installed).filter((l) => !unpacked.has(l)),
    binFolders: [
      ...new Set(
        [...Object.keys(installed), ...Object.keys(newEntries)].map(binFolderOf).filter((f): f is string => !!f),
      ),
    ],
    files,
    ...summary,
    installScripts: installScripts.sort(),
    skipped,
    total: nodes.length,
    fetchedBytes: progress.bytes,
  };
}

const withoutRoot = (packages: Record<string, LockEntry>) =>
  Object.fromEntries(Object.entries(packages).filter(([location]) => location !== ''));

/** What the hidden lockfile says node_modules holds, or null when it is absent or unreadable. */
async function readHiddenLock(reader: ProjectReader): Promise<Record<string, LockEntry> | null> {
  try {
    const parsed = JSON.parse((await reader.readText(HIDDEN_LOCK)) ?? 'null') as Lockfile | null;
    return parsed?.packages && typeof parsed.packages === 'object' ? withoutRoot(parsed.packages) : null;
  } catch {
    return null;
  }
}

/** As npm reads the folders: the listed packages whose folder holds that version. */
async function presentOf(
  reader: ProjectReader,
  entries: Record<string, LockEntry>,
): Promise<Record<string, LockEntry>> {
  const present: Record<string, LockEntry> = {};
  for (const [location, entry] of Object.entries(entries)) {
    const text = await reader.readText(`${location}/package.json`).catch(() => null);
    try {
      if (text !== null && (JSON.parse(text) as { version?: string }).version === entry.version)
        present[location] = entry;
    } catch {
      // an unreadable package.json: not installed as the lock says
    }
  }
  return present;
}

/** `node_modules/.package-lock.json` as npm writes it: the lock's head and the packages node_modules holds. */
function hiddenLockText(lock: Lockfile, held: Record<string, LockEntry>): string {
  const head: Partial<Lockfile> = {};
  if (lock.name !== undefined) head.name = lock.name;
  if (lock.version !== undefined) head.version = lock.version;
  return `${JSON.stringify({ ...head, lockfileVersion: 3, requires: true, packages: held }, null, 2)}\n`;
}

const binFolderOf = (location: string) => {
  const at = location.lastIndexOf('node_modules/');
  return at === -1 ? undefined : `${location.slice(0, at)}node_modules/.bin`;
};

/** Fields only a tarball's package.json gives (npm reads them there): kept from the old lock for an unchanged package. */
function carryMetadata(entry: LockEntry, old: LockEntry): void {
  if (old.license && !entry.license) entry.license = old.license;
  if (old.hasInstallScript) entry.hasInstallScript = true;
}

function checkLockMatches(manifest: ProjectManifest, lock: Lockfile): void {
  const rootEntry = lock.packages[''] ?? {};
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies'] as const) {
    const want = manifest[field] ?? {};
    const have = rootEntry[field] ?? {};
    for (const name of new Set([...Object.keys(want), ...Object.keys(have)])) {
      if (want[name] !== have[name])
        throw new PackageError(
          'STALE_FILE',
          name,
          `package.json and package-lock.json disagree (${field}: ${want[name] ?? 'absent'} vs ${have[name] ?? 'absent'}); \`npm ci\` installs only a lock in sync`,
          'Run `npm install` to update the lock.',
        );
    }
  }
}

function summarise(
  before: Record<string, LockEntry>,
  after: Record<string, LockEntry>,
  fresh: boolean,
): Pick<InstallPlan, 'added' | 'removed' | 'changed'> {
  const nameOf = (location: string) => location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
  const change = (location: string, entry: LockEntry, from?: string): PackageChange => ({
    name: nameOf(location),
    location,
    version: entry.version ?? '',
    ...(from ? { from } : {}),
  });
  const added: PackageChange[] = [];
  const changed: PackageChange[] = [];
  const removed: PackageChange[] = [];
  for (const [location, entry] of Object.entries(after)) {
    if (location === '') continue;
    const old = fresh ? undefined : before[location];
    if (!old) added.push(change(location, entry));
    else if (old.version !== entry.version) changed.push(change(location, entry, old.version));
  }
  if (!fresh)
    for (const [location, entry] of Object.entries(before))
      if (location !== '' && !after[location]) removed.push(change(location, entry));
  return { added, removed, changed };
}
