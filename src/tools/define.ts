import type { ToolContext } from '../workspace/context.js';

/** A JSON Schema object as tools declare it (the subset model APIs accept). */
export type JsonSchema = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: readonly unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  [keyword: string]: unknown;
};

/**
 * One tool: its name, the description a model reads, the JSON Schema of its arguments (declared
 * once, and used for validation, docs, MCP and export) and the function that does the work.
 */
export interface ToolDefinition<Args = any, Result = unknown> {
  name: string;
  description: string;
  schema: JsonSchema;
  /** true when the tool can change files; such calls return a change_id */
  mutates: boolean;
  /** Optional check before schema validation, for argument mistakes that deserve a precise error (seed guidance rules). */
  precheck?(args: unknown): void;
  run(args: Args, ctx: ToolContext): Promise<Result>;
}

export function defineTool<Args, Result>(definition: ToolDefinition<Args, Result>): ToolDefinition<Args, Result> {
  return definition;
}

/** What `listTools()` gives: the plain-JSON face of a tool. */
export interface ToolInfo {
  name: string;
  description: string;
  input_schema: JsonSchema;
}
