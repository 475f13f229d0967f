/** A fixture package version: its package.json fields and files (package.json is added). */
export interface FixturePackage {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: string | Record<string, string>;
  /** the package's `exports` map (its `main` is always index.js, which the registry writes) */
  exports?: string | Record<string, unknown>;
  scripts?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  license?: string;
  /** extra files by path inside the package; a leading `+x ` in the content marks it executable */
  files?: Record<string, string>;
  /** dist-tags pointing here besides `latest` (the highest version of a name is latest unless `notLatest`) */
  tags?: string[];
  notLatest?: boolean;
}

/**
 * A real package folder (say a node_modules/<name> of this repository), served as it is: every
 * file but nested node_modules, its package.json (without npm's `_` fields) as the manifest.
 */
export interface FolderPackage {
  dir: string;
  tags?: string[];
  notLatest?: boolean;
}

/** A local npm registry on 127.0.0.1, with the CORS headers the public registry sends. */
export interface LocalRegistry {
  url: string;
  /** requests served, by path (packuments and tarballs) */
  hits: string[];
  /** serve other bytes for this tarball than its integrity says (an integrity mismatch) */
  tamper(name: string, version: string): void;
  /** the tarball path of a version, as the packument gives it (without the origin) */
  tarballPath(name: string, version: string): string;
  close(): Promise<void>;
}

/** A gzipped tar as `npm pack` makes one: every file under `package/`. */
export function packTarball(files: Array<{ path: string; data: Buffer; mode: number }>): Buffer;

/**
 * Start a registry serving `packages` until `close()`: fixtures (fields and files, packed here)
 * or real package folders (`{ dir }`, packed as they are).
 */
export function startNpmRegistry(packages: Array<FixturePackage | FolderPackage>): Promise<LocalRegistry>;
