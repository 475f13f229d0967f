import { isWords, sayWords, type Words } from './words.js';

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

/** A {@link Problem} whose message may keep the names it mentions as {@link Words}. */
export interface WordedProblem {
  /** a JSON pointer to the argument */
  path: string;
  /** what is wrong with it */
  message: string | Words;
}

/** The texts of a {@link ToolError} that were given as {@link Words}, so a toolset can say them in its names. */
export interface ErrorWords {
  /** the message's words */
  message?: Words;
  /** the hint's words */
  hint?: Words;
  /** each problem's message words, by index (undefined where the message was a plain string) */
  problems?: ReadonlyArray<Words | undefined>;
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
  /** the texts given as Words: message, hint and problems keep the names they mention as data */
  declare readonly words?: ErrorWords; // declared, not a field: an error without Words has no own `words`

  /** Texts may be plain strings or {@link Words}; `message`, `hint` and `problems` hold them as the canonical tools say them. */
  constructor(
    code: ErrorCode,
    message: string | Words,
    options: { hint?: string | Words; problems?: WordedProblem[]; details?: Record<string, unknown> } = {},
  ) {
    super(isWords(message) ? sayWords(message) : message);
    this.name = 'ToolError';
    this.code = code;
    const { hint, problems } = options;
    this.hint = isWords(hint) ? sayWords(hint) : hint;
    const problemWords = problems?.map((p) => (isWords(p.message) ? p.message : undefined));
    this.problems = problemWords?.some(Boolean)
      ? problems!.map(
          (p, i) => ({ path: p.path, message: problemWords[i] ? sayWords(problemWords[i]) : p.message }) as Problem,
        )
      : (problems as Problem[] | undefined);
    this.details = options.details;
    if (isWords(message) || isWords(hint) || problemWords?.some(Boolean)) {
      this.words = {
        ...(isWords(message) ? { message } : {}),
        ...(isWords(hint) ? { hint } : {}),
        ...(problemWords?.some(Boolean) ? { problems: problemWords } : {}),
      };
    }
  }

  /** The message or hint as Words (a plain text is one part), so an error that quotes this one keeps its names as data. */
  wordsOf(text: 'message' | 'hint'): Words | undefined {
    const said = this.words?.[text];
    if (said) return said;
    const plain = text === 'message' ? this.message : this.hint;
    return plain === undefined ? undefined : { parts: [plain] };
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
