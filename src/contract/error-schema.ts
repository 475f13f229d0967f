import { ERROR_CODES, type ToolErrorBody } from './errors.js';
import { s, type Schema } from './schema.js';

/**
 * The JSON Schema of a failed envelope's `error` (ToolErrorBody): a code from the closed list, a
 * message, and optionally a hint, the argument problems and tool-specific details.
 */
export const toolErrorSchema: Schema<ToolErrorBody> = s.object(
  {
    code: s.enum(ERROR_CODES),
    message: s.string({ description: 'What went wrong, written for the model.' }),
    hint: s.optional(s.string({ description: 'What to do next.' })),
    problems: s.optional(
      s.array(s.object({ path: s.string({ description: 'A JSON pointer to the argument.' }), message: s.string() })),
    ),
  },
  { additionalProperties: true },
);
