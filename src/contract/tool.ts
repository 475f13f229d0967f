import type { Envelope } from './envelope.js';

/** A JSON Schema object as tools declare it (the subset model APIs accept). */
export type JsonSchema = {
  /** the JSON type, or several */
  type?: string | string[];
  /** what the value means, for the model */
  description?: string;
  /** an object's properties, by name */
  properties?: Record<string, JsonSchema>;
  /** the properties an object must have */
  required?: readonly string[];
  /** false refuses unknown keys; a schema checks their values */
  additionalProperties?: boolean | JsonSchema;
  /** the schema every array item matches */
  items?: JsonSchema;
  /** the only values allowed */
  enum?: readonly unknown[];
  /** the value used when the argument is left out */
  default?: unknown;
  /** the smallest number allowed */
  minimum?: number;
  /** the largest number allowed */
  maximum?: number;
  /** the shortest string allowed */
  minLength?: number;
  /** the longest string allowed */
  maxLength?: number;
  /** the fewest array items allowed */
  minItems?: number;
  /** the most array items allowed */
  maxItems?: number;
  /** a regular expression a string must match */
  pattern?: string;
  /** any other JSON Schema keyword */
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
export interface ToolContract<Args = any, Result = unknown, Ctx = any, Name extends string = string> {
  /** the name a model calls it by (`read_file`) */
  name: Name;
  /** a short human-readable name (MCP `title`) */
  title?: string;
  /** what the model reads to decide when and how to call it */
  description: string;
  /** the JSON Schema of its arguments, checked before `run` */
  schema: JsonSchema;
  /** the JSON Schema of a successful result (MCP `outputSchema`) */
  resultSchema?: JsonSchema;
  /** what it does to its surroundings */
  annotations?: ToolAnnotations;
  /** true when the tool can change files; such calls return a change_id */
  mutates: boolean;
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
  /** the name `call` takes */
  name: string;
  /** a short human-readable name */
  title?: string;
  /** what the model reads */
  description: string;
  /** the JSON Schema of its arguments */
  input_schema: JsonSchema;
  /** the JSON Schema of a successful result */
  output_schema?: JsonSchema;
  /** what it does to its surroundings */
  annotations?: ToolAnnotations;
}

/** The arguments a tool definition takes. */
export type ArgsOf<T> = T extends ToolContract<infer A, any, any, any> ? A : never;
/** The result a tool definition gives on success. */
export type ResultOf<T> = T extends ToolContract<any, infer R, any, any> ? R : never;
