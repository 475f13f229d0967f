import type { Envelope } from './envelope.js';

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

/** What a tool does to its surroundings, as MCP's annotations and a person's approval UI read it. */
export interface ToolAnnotations {
  /** changes nothing */
  readOnly: boolean;
  /** may destroy or replace what is there (only meaningful when not read-only) */
  destructive: boolean;
  /** a repeat with the same arguments changes nothing more */
  idempotent: boolean;
  /** reaches past the workspace (a program, the network) */
  openWorld: boolean;
}

/**
 * One tool: its name, the description a model reads, the JSON Schema of its arguments and of its
 * result (each declared once, and used for validation, docs, MCP and export), the facts every
 * surface reads (title, annotations, where it is offered) and the function that does the work.
 * `Ctx` is what the workspace hands `run`; the contract does not need to know its shape.
 */
export interface ToolDefinition<Args = any, Result = unknown, Ctx = any, Name extends string = string> {
  name: Name;
  /** a short human-readable name (MCP `title`) */
  title?: string;
  description: string;
  schema: JsonSchema;
  /** the JSON Schema of a successful result (MCP `outputSchema`) */
  resultSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  /** true when the tool can change files; such calls return a change_id */
  mutates: boolean;
  /**
   * A place a host fills with its own tool: a host that can run programs swaps its tool for the
   * one in slot `process` (the browser's run_command, which answers NOT_SUPPORTED).
   */
  slot?: 'process';
  /** The toolsets that offer this tool when it joins one as an extra (default: every toolset). */
  toolsets?: readonly string[];
  /** The hint for a call to `<name>.<method>`, a dotted name some models invent, when this tool takes the method in its arguments. */
  dottedHint?(method: string): string;
  /** The envelope as this tool's clients expect it on the wire (file_manager's `{ok, tool, results}`); default unchanged. */
  present?(envelope: Envelope): Record<string, unknown>;
  /** Optional check before schema validation, for argument mistakes that deserve a precise error (seed guidance rules). */
  precheck?(args: unknown): void;
  /** Do the work with validated arguments; throw a ToolError to fail. */
  run(args: Args, ctx: Ctx): Promise<Result>;
}

/** What `listTools()` gives: the plain-JSON face of a tool. */
export interface ToolInfo {
  name: string;
  title?: string;
  description: string;
  input_schema: JsonSchema;
  /** the JSON Schema of a successful result */
  output_schema?: JsonSchema;
  annotations?: ToolAnnotations;
}

/** The arguments a tool definition takes. */
export type ArgsOf<T> = T extends ToolDefinition<infer A, any, any, any> ? A : never;
/** The result a tool definition gives on success. */
export type ResultOf<T> = T extends ToolDefinition<any, infer R, any, any> ? R : never;
