/** The contract every layer speaks: imports nothing from the project, and everything may import it. */
export {
  ERROR_CODES,
  ToolError,
  type ErrorCode,
  type ErrorWords,
  type Problem,
  type ToolErrorBody,
  type WordedProblem,
} from './errors.js';
export {
  arg,
  isWords,
  joinWords,
  passage,
  pointer,
  renamePointer,
  sayWords,
  tool,
  words,
  type ArgSlot,
  type Passage,
  type PassageKey,
  type PointerSlot,
  type ToolSlot,
  type WordPart,
  type Wording,
  type Words,
} from './words.js';
export { PASSAGES } from './passages.js';
export type { Envelope } from './envelope.js';
export type { ArgsOf, JsonSchema, ResultOf, ToolAnnotations, ToolContract, ToolInfo } from './tool.js';
export { toolErrorSchema } from './error-schema.js';
export {
  OptionalProperty,
  s,
  type Infer,
  type ObjectOf,
  type ObjectSchema,
  type Schema,
  type SchemaKeywords,
  type SchemaProperties,
} from './schema.js';
