/** The Node error codes adapters speak; anything else becomes EIO. */
export type FsErrorCode =
  | 'ENOENT'
  | 'EEXIST'
  | 'EISDIR'
  | 'ENOTDIR'
  | 'ENOTEMPTY'
  | 'EACCES'
  | 'EPERM'
  | 'ENOSPC'
  | 'EIO'
  | 'ELOOP'
  | 'EXDEV'
  | 'EINVAL'
  | 'ENAMETOOLONG'
  | 'EBUSY';

const KNOWN = new Set<string>([
  'ENOENT',
  'EEXIST',
  'EISDIR',
  'ENOTDIR',
  'ENOTEMPTY',
  'EACCES',
  'EPERM',
  'ENOSPC',
  'EIO',
  'ELOOP',
  'EXDEV',
  'EINVAL',
  'ENAMETOOLONG',
  'EBUSY',
]);

/** An error with a Node `code`; its message never holds more than the code and an operation. */
export class FsError extends Error {
  /** the Node error code */
  readonly code: FsErrorCode;
  constructor(code: FsErrorCode, operation: string) {
    super(`${code}: ${operation} failed`);
    this.name = 'FsError';
    this.code = code;
  }
}

/** The Node code of an error, from Node itself, memfs, lightning-fs or a DOMException. */
export function fsCodeOf(error: unknown): FsErrorCode {
  const e = error as { code?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string' && KNOWN.has(e.code)) return e.code as FsErrorCode;
  switch (e?.name) {
    case 'NotFoundError':
      return 'ENOENT';
    case 'TypeMismatchError':
      return 'ENOTDIR';
    case 'InvalidModificationError':
      return 'ENOTEMPTY';
    case 'QuotaExceededError':
      return 'ENOSPC';
    case 'NoModificationAllowedError':
      return 'EACCES';
    case 'NotAllowedError':
      return 'EACCES';
  }
  return 'EIO';
}

/** Rethrow any failure as an FsError, so no foreign message (which may hold a host path) leaks. */
export async function translated<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FsError) throw error;
    throw new FsError(fsCodeOf(error), operation);
  }
}

export function hasFsCode(error: unknown, ...codes: FsErrorCode[]): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (codes as string[]).includes(code);
}
