import { Ajv } from 'ajv';
import { expect } from 'vitest';
import type { Envelope, ToolDefinition } from '../../src/index.js';
import { validateArgs } from '../../src/tools/schema/validate.js';

// strict: the schemas must also be well-formed JSON Schema, not only accept the data.
const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false });
const compiled = new WeakMap<object, ReturnType<Ajv['compile']>>();

/**
 * Check a successful result against the tool's declared result schema twice: with Sandpit's own
 * checker and with ajv, so a schema that lies (a missing field, a wrong type, an undeclared key)
 * fails here. Returns the result for further assertions.
 */
export function expectResultMatches(tool: ToolDefinition, envelope: Envelope): Record<string, unknown> {
  if (!envelope.ok) throw new Error(`${tool.name} failed: ${JSON.stringify(envelope.error)}`);
  const schema = tool.resultSchema;
  expect(schema, `${tool.name} declares a result schema`).toBeDefined();
  const result = JSON.parse(JSON.stringify(envelope.result)) as Record<string, unknown>;
  expect(validateArgs(schema!, result), `${tool.name}: ${JSON.stringify(result).slice(0, 400)}`).toEqual([]);
  let check = compiled.get(schema!);
  if (!check) compiled.set(schema!, (check = ajv.compile(schema!)));
  expect(check(result), `${tool.name} (ajv): ${JSON.stringify(check.errors)}`).toBe(true);
  return result;
}

/** Call a tool through the workspace and check its result; the tool must be one the workspace offers. */
export async function callChecked(
  ws: { call(name: string, args?: unknown): Promise<Envelope> },
  tools: readonly ToolDefinition[],
  name: string,
  args: unknown,
): Promise<Record<string, any>> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return expectResultMatches(tool, await ws.call(name, args));
}
