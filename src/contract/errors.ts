/** The closed list of error codes from DESIGN.md. */
export const ERROR_CODES = [
  'INVALID_ARGUMENTS',
  'UNKNOWN_TOOL',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'NOT_A_FILE',
  'NOT_A_DIRECTORY',
  'DIRECTORY_NOT_EMPTY',
  'OUTSIDE_WORKSPACE',
  'BINARY_FILE',
  'DECODE_ERROR',
  'UNSUPPORTED_FILE_TYPE',
  'TOO_LARGE',
  'NO_MATCH',
  'AMBIGUOUS_MATCH',
  'NOT_READ',
  'STALE_FILE',
  'PATCH_PARSE_ERROR',
  'PATCH_CONFLICT',
  'CONFIRMATION_DENIED',
  'NOT_SUPPORTED',
  'TIMEOUT',
  'PERMISSION_DENIED',
  'QUOTA_EXCEEDED',
  'IO_ERROR',
] as const;
/** One of the closed list of error codes an envelope can carry. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One mistake in a call's arguments: a JSON pointer to the argument and what is wrong with it. */
export interface Problem {
  /** a JSON pointer to the argument (`/start_line`; `''` for the arguments as a whole) */
  path: string;
  /** what is wrong with it */
  message: string;
}

/** The `error` of a failed envelope: a code, a message for the model, and what to do next. */
export interface ToolErrorBody {
  /** one of {@link ERROR_CODES} */
  code: ErrorCode;
  /** what went wrong, written for the model; never a host path */
  message: string;
  /** what to do next, when there is something better than retrying */
  hint?: string;
  /** for INVALID_ARGUMENTS: one entry per mistake */
  problems?: Problem[];
  /** tool-specific facts (the lines of each match of an AMBIGUOUS_MATCH, say) */
  [extra: string]: unknown;
}

/** A failure a tool reports to the model; `call` turns it into the error envelope. */
export class ToolError extends Error {
  /** one of {@link ERROR_CODES} */
  readonly code: ErrorCode;
  /** what to do next */
  readonly hint?: string;
  /** for INVALID_ARGUMENTS: one entry per mistake */
  readonly problems?: Problem[];
  /** extra facts, spread into the error body */
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { hint?: string; problems?: Problem[]; details?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.name = 'ToolError';
    this.code = code;
    this.hint = options.hint;
    this.problems = options.problems;
    this.details = options.details;
  }

  /** The error as the envelope carries it: plain JSON. */
  toJSON(): ToolErrorBody {
    const body: ToolErrorBody = { code: this.code, message: this.message };
    if (this.hint) body.hint = this.hint;
    if (this.problems) body.problems = this.problems;
    if (this.details) Object.assign(body, this.details);
    return body;
  }
}
