/** Dependency maps as package.json holds them: name to range (or tag). */
export type DepMap = Record<string, string>;

/** One version of a package, as a packument lists it (the abbreviated form has these fields). */
export interface PackumentVersion {
  name: string;
  version: string;
  dependencies?: DepMap;
  optionalDependencies?: DepMap;
  devDependencies?: DepMap;
  peerDependencies?: DepMap;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: string | Record<string, string>;
  directories?: { bin?: string };
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  deprecated?: string;
  hasInstallScript?: boolean;
  scripts?: Record<string, string>;
  license?: string;
  dist: { tarball: string; integrity?: string; shasum?: string };
}

/** A registry's document for one package name. */
export interface Packument {
  name: string;
  'dist-tags'?: Record<string, string>;
  versions: Record<string, PackumentVersion>;
}

/** The root project's package.json, as far as an install reads it. */
export interface ProjectManifest {
  name?: string;
  version?: string;
  dependencies?: DepMap;
  devDependencies?: DepMap;
  optionalDependencies?: DepMap;
  peerDependencies?: DepMap;
  [key: string]: unknown;
}

/** One entry of package-lock.json's `packages`, in npm's field names. */
export interface LockEntry {
  name?: string;
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  peer?: boolean;
  hasInstallScript?: boolean;
  license?: string;
  dependencies?: DepMap;
  devDependencies?: DepMap;
  optionalDependencies?: DepMap;
  peerDependencies?: DepMap;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  engines?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  deprecated?: string;
}

/** package-lock.json, lockfileVersion 3. */
export interface Lockfile {
  name?: string;
  version?: string;
  lockfileVersion: 3;
  requires: true;
  packages: Record<string, LockEntry>;
}

/** Progress of an install: a phase and counts, for a console line or an MCP progress notification. */
export interface InstallProgress {
  phase: 'resolving' | 'fetching' | 'unpacking';
  /** packages resolved or fetched so far */
  done: number;
  /** packages known so far (grows while resolving) */
  total: number;
  /** tarball bytes fetched so far */
  bytes: number;
}
