/** The contract every layer speaks: imports nothing from the project, and everything may import it. */
export { ERROR_CODES, ToolError, type ErrorCode, type Problem, type ToolErrorBody } from './errors.js';
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
