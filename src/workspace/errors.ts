import { fsCodeOf, type FsErrorCode } from '../fs/errors.js';

/** The closed list of error codes from DESIGN.md. */
export const ERROR_CODES = [
  'INVALID_ARGUMENTS', 'UNKNOWN_TOOL', 'NOT_FOUND', 'ALREADY_EXISTS', 'NOT_A_FILE', 'NOT_A_DIRECTORY',
  'DIRECTORY_NOT_EMPTY', 'OUTSIDE_WORKSPACE', 'BINARY_FILE', 'DECODE_ERROR', 'UNSUPPORTED_FILE_TYPE',
  'TOO_LARGE', 'NO_MATCH', 'AMBIGUOUS_MATCH', 'NOT_READ', 'STALE_FILE', 'PATCH_PARSE_ERROR',
  'PATCH_CONFLICT', 'CONFIRMATION_DENIED', 'NOT_SUPPORTED', 'TIMEOUT', 'PERMISSION_DENIED',
  'QUOTA_EXCEEDED', 'IO_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface Problem {
  path: string;
  message: string;
}

export interface ToolErrorBody {
  code: ErrorCode;
  message: string;
  hint?: string;
  problems?: Problem[];
  [extra: string]: unknown;
}

/** A failure a tool reports to the model; `call` turns it into the error envelope. */
export class ToolError extends Error {
  readonly code: ErrorCode;
  readonly hint?: string;
  readonly problems?: Problem[];
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, options: { hint?: string; problems?: Problem[]; details?: Record<string, unknown> } = {}) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.hint = options.hint;
    this.problems = options.problems;
    this.details = options.details;
  }

  toJSON(): ToolErrorBody {
    const body: ToolErrorBody = { code: this.code, message: this.message };
    if (this.hint) body.hint = this.hint;
    if (this.problems) body.problems = this.problems;
    if (this.details) Object.assign(body, this.details);
    return body;
  }
}

const FS_TO_TOOL: Partial<Record<FsErrorCode, ErrorCode>> = {
  ENOENT: 'NOT_FOUND', EEXIST: 'ALREADY_EXISTS', EISDIR: 'NOT_A_FILE', ENOTDIR: 'NOT_A_DIRECTORY',
  ENOTEMPTY: 'DIRECTORY_NOT_EMPTY', EACCES: 'PERMISSION_DENIED', EPERM: 'PERMISSION_DENIED',
  ENOSPC: 'QUOTA_EXCEEDED', ENAMETOOLONG: 'INVALID_ARGUMENTS',
};

const FS_WORDS: Partial<Record<FsErrorCode, string>> = {
  ENOENT: 'does not exist', EEXIST: 'already exists', EISDIR: 'is a directory',
  ENOTDIR: 'has a file where a folder is expected', ENOTEMPTY: 'is a folder that is not empty',
  EACCES: 'is not accessible (permission denied)', EPERM: 'is not accessible (permission denied)',
  ENOSPC: 'could not be written: the storage is full', ENAMETOOLONG: 'has a name that is too long',
};

/**
 * Turn any failure into a ToolError about a workspace path. Foreign messages are dropped
 * because they can hold host paths; only the Node code survives.
 */
export function toToolError(error: unknown, relPath?: string): ToolError {
  if (error instanceof ToolError) return error;
  const code = fsCodeOf(error);
  const subject = relPath === undefined ? 'the path' : `'${relPath || '.'}'`;
  if (FS_TO_TOOL[code]) return new ToolError(FS_TO_TOOL[code]!, `${subject} ${FS_WORDS[code]}`);
  if (code === 'ELOOP') return new ToolError('OUTSIDE_WORKSPACE', `${subject} goes through too many symbolic links`);
  const foreign = error as { code?: unknown; name?: unknown } | null;
  if (typeof foreign?.code !== 'string' && !(typeof DOMException !== 'undefined' && error instanceof DOMException)) {
    return new ToolError('IO_ERROR', `an internal error stopped the tool while working on ${subject}`, {
      hint: 'Check the path with read_file or list_directory before retrying; report it if it repeats.',
    });
  }
  return new ToolError('IO_ERROR', `the storage failed while working on ${subject} (${code})`, {
    hint: 'Retry once; if it fails again the backend is unhealthy.',
  });
}
