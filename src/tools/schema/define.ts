import type {
  Infer,
  JsonSchema,
  ToolAnnotations,
  ToolContract as ContractTool,
  ToolInfo,
} from '../../contract/index.js';
import type { SnapshotStore } from '../../snapshots/store.js';
import type { ToolContext } from '../../workspace/context.js';

export type { JsonSchema, ToolInfo };

/** The context a workspace's tools run with: the workspace layer's, with the snapshot store. */
export type ToolRunContext = ToolContext<SnapshotStore>;

/** A tool as Sandpit's workspace runs it (the contract's definition, with the tool context). */
export type ToolDefinition<Args = any, Result = unknown, Name extends string = string> = ContractTool<
  Args,
  Result,
  ToolRunContext,
  Name
>;

/** What a tool declares: every fact is required here, and the types of `run` come from the two schemas. */
export type ToolSpec<Name extends string, A extends JsonSchema, R extends JsonSchema> = Omit<
  ContractTool<Infer<A>, Infer<R>, ToolRunContext, Name>,
  'title' | 'schema' | 'resultSchema' | 'annotations' | 'run'
> & {
  /** a short human-readable name */
  title: string;
  /** the JSON Schema of the arguments */
  schema: A;
  /** the JSON Schema of a successful result */
  resultSchema: R;
  /** what the tool does to its surroundings */
  annotations: ToolAnnotations;
  /** Do the work with arguments already checked against `schema`; throw a ToolError to fail. */
  run(args: Infer<A>, ctx: ToolRunContext): Promise<Infer<R>>;
};

/** Declare a tool: its argument and result types are those of its schemas, declared once. */
export function defineTool<const Name extends string, A extends JsonSchema, R extends JsonSchema>(
  spec: ToolSpec<Name, A, R>,
): ToolDefinition<Infer<A>, Infer<R>, Name> & {
  /** the JSON Schema of the arguments, with their type */
  schema: A;
  /** the JSON Schema of a successful result, with its type */
  resultSchema: R;
  /** a short human-readable name */
  title: string;
  /** what the tool does to its surroundings */
  annotations: ToolAnnotations;
} {
  const result = spec.resultSchema;
  if (!spec.mutates || result.type !== 'object' || !result.properties) return spec;
  // Any change may come back with the note that history could not hold it (see withSnapshotError).
  return { ...spec, resultSchema: { ...result, properties: { ...result.properties, snapshot_error: SNAPSHOT_ERROR } } };
}

const SNAPSHOT_ERROR: JsonSchema = {
  type: 'object',
  description: 'Present when the change was made but the snapshot history could not hold it, so undo cannot reach it.',
  properties: { code: { type: 'string' }, message: { type: 'string' }, hint: { type: 'string' } },
  required: ['code', 'message'],
  additionalProperties: false,
};

/** Changes nothing: a repeat gives the same answer. */
export const READ_ONLY: ToolAnnotations = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
/** Only adds (text at the end, a record): never destroys, but each repeat adds again. */
export const ADDITIVE: ToolAnnotations = { readOnly: false, destructive: false, idempotent: false, openWorld: false };
/** May replace or remove what is there; a repeat with the same arguments changes nothing more. */
export const DESTRUCTIVE_IDEMPOTENT: ToolAnnotations = {
  readOnly: false,
  destructive: true,
  idempotent: true,
  openWorld: false,
};
/** May replace or remove what is there, and a repeat may change more. */
export const DESTRUCTIVE: ToolAnnotations = { readOnly: false, destructive: true, idempotent: false, openWorld: false };
/** Runs a program: it may change anything and reach past the workspace. */
export const RUNS_PROGRAMS: ToolAnnotations = {
  readOnly: false,
  destructive: true,
  idempotent: false,
  openWorld: true,
};
