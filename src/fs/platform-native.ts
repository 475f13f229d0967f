import type { NativeHelpers, WorkspaceFs } from './types.js';

let installed: NativeHelpers | null = null;

/**
 * Install the host's native helpers for every backend that brings none of its own (memory in
 * Node): the Node entry installs Node's zlib and crypto when it loads. The browser entry never
 * does, so its bundle holds no `node:` import and the portable code is used there.
 */
export function installPlatformNative(helpers: NativeHelpers | null): void {
  installed = helpers;
}

/** The host's native helpers, if an entry installed them. */
export function platformNative(): NativeHelpers | null {
  return installed;
}

/** The backend's own native helpers, else the host's, else none. */
export function nativeFor(fs: WorkspaceFs): NativeHelpers | null {
  return fs.native ?? installed;
}
