import type { JsonSchema, ToolDefinition } from '../tools/schema/define.js';
import { validateArgs } from '../tools/schema/validate.js';
import type { ToolRunContext as ToolContext } from '../tools/schema/define.js';
import {
  joinWords,
  pointer,
  tool as toolName,
  ToolError,
  words,
  type Problem,
  type ResultOf,
  type Words,
} from '../contract/index.js';
import type { ResolvedPolicy } from '../workspace/policy.js';

/**
 * Run a canonical tool from inside a seed tool: the canonical schema checks the mapped arguments
 * (so a seed adapter never re-implements validation), then the canonical code does the work on
 * the same context, so changes land in this call's change log entry and snapshot.
 */
export async function runCanonical<
  T extends ToolDefinition,
  R = unknown extends ResultOf<T> ? Record<string, any> : ResultOf<T>,
>(tool: T, args: Record<string, unknown>, ctx: ToolContext, where = ''): Promise<R> {
  const problems = validateArgs(tool.schema, args);
  if (problems.length > 0)
    throw invalid(
      words`${where ? pointer(where) : toolName(tool.name)} got invalid arguments`,
      problems.map((p) => ({ ...p, path: `${where}${p.path}` })),
    );
  return (await tool.run(args, ctx)) as R;
}

/** An INVALID_ARGUMENTS error listing each problem in its message too. */
export function invalid(what: string | Words, problems: Problem[], hint?: string): ToolError {
  const listed = problems.map((p) => words`${p.path ? pointer(p.path) : '(arguments)'} ${p.message}`);
  return new ToolError('INVALID_ARGUMENTS', words`${what}: ${joinWords(listed, '; ')}`, {
    ...(hint ? { hint } : {}),
    problems,
  });
}

/** Only the named properties of a canonical schema, so a seed tool reuses their descriptions and types. */
export function pick(schema: JsonSchema, names: readonly string[]): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const name of names) {
    const property = schema.properties?.[name];
    if (property) out[name] = property;
  }
  return out;
}

/** Drop undefined values, so a canonical schema sees only arguments that were given. */
export function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
}

/**
 * The same context with a stricter policy for one seed tool (cowork's read audit): a view, so
 * what the tool records (changes, ledger, snapshot paths) still lands in the original call.
 */
export function withPolicy(ctx: ToolContext, patch: Partial<ResolvedPolicy>): ToolContext {
  const view = Object.create(ctx) as ToolContext;
  Object.defineProperty(view, 'policy', { value: { ...ctx.policy, ...patch } });
  return view;
}
