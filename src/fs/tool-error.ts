import { ToolError, type ErrorCode } from '../contract/errors.js';
import { PASSAGES } from '../contract/passages.js';
import { words } from '../contract/words.js';
import { fsCodeOf, type FsErrorCode } from './errors.js';
import { describeSpecial, SpecialFileError, type SpecialKind } from './special.js';

const FS_TO_TOOL: Partial<Record<FsErrorCode, ErrorCode>> = {
  ENOENT: 'NOT_FOUND',
  EEXIST: 'ALREADY_EXISTS',
  EISDIR: 'NOT_A_FILE',
  ENOTDIR: 'NOT_A_DIRECTORY',
  ENOTEMPTY: 'DIRECTORY_NOT_EMPTY',
  EACCES: 'PERMISSION_DENIED',
  EPERM: 'PERMISSION_DENIED',
  ENOSPC: 'QUOTA_EXCEEDED',
  ENAMETOOLONG: 'INVALID_ARGUMENTS',
};

const FS_WORDS: Partial<Record<FsErrorCode, string>> = {
  ENOENT: 'does not exist',
  EEXIST: 'already exists',
  EISDIR: 'is a directory',
  ENOTDIR: 'has a file where a folder is expected',
  ENOTEMPTY: 'is a folder that is not empty',
  EACCES: 'is not accessible (permission denied)',
  EPERM: 'is not accessible (permission denied)',
  ENOSPC: 'could not be written: the storage is full',
  ENAMETOOLONG: 'has a name that is too long',
};

/**
 * Turn any failure into a ToolError about a workspace path. Foreign messages are dropped
 * because they can hold host paths; only the Node code survives.
 */
export function toToolError(error: unknown, relPath?: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = fsCodeOf(error);
  const subject = relPath === undefined ? 'the path' : `'${relPath || '.'}'`;
  if (error instanceof SpecialFileError) return specialFileRefusal(subject, error.special);
  if (FS_TO_TOOL[code]) return new ToolError(FS_TO_TOOL[code]!, `${subject} ${FS_WORDS[code]}`);
  if (code === 'ELOOP') return new ToolError('OUTSIDE_WORKSPACE', `${subject} goes through too many symbolic links`);
  const foreign = error as { code?: unknown; name?: unknown } | null;
  if (typeof foreign?.code !== 'string' && !(typeof DOMException !== 'undefined' && error instanceof DOMException)) {
    return new ToolError('IO_ERROR', `an internal error stopped the tool while working on ${subject}`, {
      hint: words`${PASSAGES.retryCheck}; report it if it repeats.`,
    });
  }
  return new ToolError('IO_ERROR', `the storage failed while working on ${subject} (${code})`, {
    hint: 'Retry once; if it fails again the backend is unhealthy.',
  });
}

/** The refusal for reading a FIFO, socket or device: UNSUPPORTED_FILE_TYPE, naming what it is. */
export function specialFileRefusal(subject: string, kind: SpecialKind): ToolError {
  return new ToolError(
    'UNSUPPORTED_FILE_TYPE',
    `${subject} is ${describeSpecial(kind)}, not a regular file, so it is not read (snapshots and searches skip it too)`,
    { hint: 'It holds no text to read: leave it to the program that made it.' },
  );
}
