/** The contract every layer speaks: imports nothing from the project, and everything may import it. */
export { ERROR_CODES, ToolError, type ErrorCode, type Problem, type ToolErrorBody } from './errors.js';
export type { Envelope } from './envelope.js';
export type { JsonSchema, ToolAnnotations, ToolDefinition, ToolInfo } from './tool.js';
