/** Folders of dependencies, build outputs and caches that searches never enter. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'jspm_packages',
  'dist',
  'build',
  'out',
  'target',
  'coverage',
  '__pycache__',
  '.next',
  '.nuxt',
  '.svelte-kit',
  '.turbo',
  '.parcel-cache',
  '.cache',
  '.venv',
  'venv',
  '.tox',
  '.mypy_cache',
  '.pytest_cache',
  '.gradle',
  '.git',
  '.hg',
  '.svn',
]);

/**
 * Folders no one versions, which snapshots leave out by default and list as skipped: the folders
 * search skips, but `out/`, where cowork writes the artifacts a person reviews, and `.git`, which
 * snapshots never enter anyway. One list, so search and history agree on what is a dependency.
 */
export const DEFAULT_SNAPSHOT_EXCLUDES: readonly string[] = [...SKIPPED_FOLDERS].filter(
  (name) => name !== 'out' && name !== '.git',
);
