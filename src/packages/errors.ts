import type { ErrorCode } from '../contract/errors.js';

/**
 * Why an install stopped, naming the package: a code from the envelope's closed list
 * (NOT_FOUND for a 404 or no matching version, IO_ERROR for the network or an integrity
 * mismatch, NOT_SUPPORTED for a spec it cannot fetch, OUTSIDE_WORKSPACE for a tarball path
 * escaping its package), and what to do next.
 */
export class PackageError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly packageName: string,
    readonly reason: string,
    readonly hint?: string,
  ) {
    super(`${packageName}: ${reason}`);
  }
}
