import type { WorkspaceFs } from '../../src/index.js';

/** A backend under test: a fresh workspace root seeded with files, and a way to clean it up. */
export interface BackendUnderTest {
  name: string;
  /** true when the backend can hold symbolic links */
  symlinks: boolean;
  make(seed?: Record<string, string | Uint8Array>): Promise<MadeBackend>;
}

export interface MadeBackend {
  fs: WorkspaceFs;
  /** the workspace root inside the backend */
  root: string;
  /** a folder beside the root, outside the workspace, for escape tests */
  outside: string;
  cleanup(): Promise<void>;
}
