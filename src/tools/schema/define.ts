import type {
  Infer,
  JsonSchema,
  ToolAnnotations,
  ToolContract as ContractTool,
  ToolInfo,
} from '../../contract/index.js';
import type { SnapshotStore } from '../../snapshots/store.js';
import type { ToolContext } from '../../workspace/context.js';
import type { ProcessRunner } from '../../process/process-runner.js';

export type { JsonSchema, ToolInfo };

/** The context a workspace's tools run with: the workspace layer's, with the snapshot store. */
export type ToolRunContext = ToolContext<SnapshotStore>;

/**
 * A tool as Sandpit's workspace runs it: the contract's definition, with the tool context and,
 * for a tool that runs programs, how it is tied to a runner (`programs`, see {@link ToolPrograms}).
 */
export type ToolDefinition<Args = any, Result = unknown, Name extends string = string> = ContractTool<
  Args,
  Result,
  ToolRunContext,
  Name
> & {
  /** Present when the tool runs programs: the runner it runs on, or how the workspace gives it one. */
  programs?: ToolPrograms;
};

/**
 * Finds what a program changed behind the tools' back (the workspace's rescan) and returns the
 * root-relative paths; [] when nothing changed or the workspace cannot tell.
 */
export type FindExternalChanges = () => Promise<string[]>;

/**
 * How a tool that runs programs (run_command, fs_process's and the vendors' shells, undo and
 * restore_snapshot, which reinstall packages) is tied to a runner. It is plain data on the
 * definition, so a `{ ...tool }` copy carries it. A tool without `runner` (canonical's
 * run_command, made before any runner exists) is bound by the workspace: `createWorkspace` offers
 * `over(its processRunner, its rescan, tool)` in its place, the built-in shell unless the host gives
 * its own runner or turns them off. A tool with `runner` (Node's real processes) is never rebound.
 */
export interface ToolPrograms {
  /** the runner the tool was made over; absent until a workspace binds it */
  runner?: ProcessRunner;
  /** the workspace's rescan, which finds what its commands changed */
  findChanges?: FindExternalChanges;
  /**
   * The same tool made over `runner`. Given `from`, a host's copy of this tool (`{ ...tool,
   * description }`), the answer keeps what the copy changed (name, words, schema, even `run`) and
   * takes the rest, the runner's wording and `run` included, from the tool over `runner`.
   */
  over(runner: ProcessRunner, findChanges?: FindExternalChanges, from?: ToolDefinition): ToolDefinition;
}

/**
 * Declare a tool that runs programs: `make` builds it over a runner, or without one. Made without
 * a runner it waits for the workspace's (see {@link ToolPrograms}); made over one it keeps it.
 */
export function runsPrograms<T extends ToolDefinition>(
  make: (runner?: ProcessRunner, findChanges?: FindExternalChanges) => T,
  runner?: ProcessRunner,
  findChanges?: FindExternalChanges,
): T {
  const tool: T = {
    ...make(runner, findChanges),
    programs: { ...(runner ? { runner } : {}), ...(findChanges ? { findChanges } : {}), over },
  };
  function over(bound: ProcessRunner, changes?: FindExternalChanges, from?: ToolDefinition): ToolDefinition {
    const made: ToolDefinition = runsPrograms(make, bound, changes);
    if (from === undefined || from === tool) return made;
    // A host's rewording keeps its own words; what it took unchanged from this tool follows the runner.
    const own = Object.entries(from).filter(([key, value]) => key !== 'programs' && value !== tool[key as keyof T]);
    return { ...made, ...Object.fromEntries(own) };
  }
  return tool;
}

/** Whether `tool` runs programs and waits for the workspace's runner (see {@link ToolPrograms}). */
export function waitsForRunner(tool: ToolDefinition): boolean {
  return tool.programs !== undefined && tool.programs.runner === undefined;
}

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
