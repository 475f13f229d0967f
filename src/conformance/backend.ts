import type { WorkspaceFs } from '../index.js';

/**
 * A backend under test: it makes a fresh workspace root seeded with files, and cleans it up.
 * Most backends need only `runConformance(makeFs, ...)`, which builds one of these for them.
 */
export interface ConformanceBackend {
  /** shown in the test names: `contract: <name>` */
  name: string;
  /** true when the backend can hold symbolic links; false skips the tests that need them */
  symlinks: boolean;
  /**
   * Make a fresh workspace root holding `seed` (paths relative to the root), with the escape
   * targets beside it (see `seedTree`). `needs.escapeTargets` is false when the test never
   * looks beside the root, so a backend may leave them out; one that ignores it is still right.
   */
  make(seed?: Record<string, string | Uint8Array>, needs?: { escapeTargets?: boolean }): Promise<MadeBackend>;
}

/** A fresh, seeded workspace in the backend under test. */
export interface MadeBackend {
  /** the backend holding the workspace */
  fs: WorkspaceFs;
  /** the workspace root inside the backend */
  root: string;
  /** a folder beside the root, outside the workspace, for escape tests */
  outside: string;
  /** Remove what `make` created. */
  cleanup(): Promise<void>;
}

/** The name the suite's files use. */
export type BackendUnderTest = ConformanceBackend;
