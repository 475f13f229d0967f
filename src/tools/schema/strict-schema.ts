import type { JsonSchema } from '../../contract/index.js';

/**
 * OpenAI's strict mode (Structured Outputs) accepts only these keywords; anything else (default,
 * minLength, oneOf, ...) makes the API refuse the whole request, so it is dropped.
 */
const STRICT_KEYWORDS = new Set([
  'type',
  'description',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** What a strict map becomes: a list of name/value pairs, since strict objects cannot have free keys. */
const MAP_NOTE = 'Given as a list of {"name", "value"} pairs.';

/** An object whose keys are free and whose values follow one schema (run_command's `env`). */
export function isMapSchema(schema: JsonSchema): boolean {
  return (
    typeof schema.additionalProperties === 'object' &&
    schema.additionalProperties !== null &&
    Object.keys(schema.properties ?? {}).length === 0
  );
}

/** The schema with `null` added as an allowed value (strict mode's way of saying "optional"). */
function nullable(schema: JsonSchema): JsonSchema {
  if (
    typeof schema.type === 'string' &&
    schema.type !== 'null' &&
    schema.enum === undefined &&
    schema.const === undefined
  ) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  const { description, ...rest } = schema;
  return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
}

/**
 * A schema OpenAI's strict mode accepts, meaning the same calls: every property required (an
 * optional one may be `null`, which `fromStrictArgs` turns back into absent), every object closed,
 * unsupported keywords dropped, a list of types split into `anyOf`, and maps given as pairs.
 */
export function toStrictSchema(schema: JsonSchema): JsonSchema {
  if (isMapSchema(schema)) {
    const value = toStrictSchema(schema.additionalProperties as JsonSchema);
    return {
      type: 'array',
      description: schema.description ? `${schema.description} ${MAP_NOTE}` : MAP_NOTE,
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, value },
        required: ['name', 'value'],
        additionalProperties: false,
      },
    };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) if (STRICT_KEYWORDS.has(key)) out[key] = value;
  if (Array.isArray(schema.type) && schema.type.length > 1) {
    const { type, description, ...rest } = out;
    return toStrictSchema({
      ...(description !== undefined ? { description } : {}),
      anyOf: (type as string[]).map((t) => ({ ...rest, type: t })),
    });
  }
  if (Array.isArray(schema.anyOf)) out.anyOf = (schema.anyOf as JsonSchema[]).map(toStrictSchema);
  if (schema.items && typeof schema.items === 'object') out.items = toStrictSchema(schema.items);
  if (schema.type === 'object' || schema.properties) {
    const required = new Set(schema.required ?? []);
    const properties: Record<string, JsonSchema> = {};
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      const strict = toStrictSchema(property);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out.type = 'object';
    out.properties = properties;
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

function allowsNull(schema: JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('null') || (Array.isArray(schema.anyOf) && (schema.anyOf as JsonSchema[]).some(allowsNull));
}

/**
 * Arguments written against `toStrictSchema(schema)` turned back into arguments for `schema`:
 * a `null` for an optional property that does not allow null is left out, and a map given as
 * `[{name, value}]` pairs becomes an object. Anything else passes unchanged, so validation still
 * reports every real mistake.
 */
export function fromStrictArgs(schema: JsonSchema, value: unknown): unknown {
  if (isMapSchema(schema) && Array.isArray(value) && value.every(isPair)) {
    const valueSchema = schema.additionalProperties as JsonSchema;
    return Object.fromEntries(value.map((pair) => [pair.name, fromStrictArgs(valueSchema, pair.value)]));
  }
  if (Array.isArray(value)) {
    const items = schema.items;
    return items && typeof items === 'object' ? value.map((v) => fromStrictArgs(items, v)) : value;
  }
  if (value === null || typeof value !== 'object') return value;
  const properties = schema.properties;
  if (!properties) {
    const branch = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]).find((b) => b.properties) : undefined;
    return branch ? fromStrictArgs(branch, value) : value;
  }
  const required = new Set(schema.required ?? []);
  const out: Record<string, unknown> = {};
  let changed = false;
  for (const [key, v] of Object.entries(value)) {
    const property = properties[key];
    if (!property) {
      out[key] = v;
      continue;
    }
    if (v === null && !required.has(key) && !allowsNull(property)) {
      changed = true;
      continue;
    }
    const next = fromStrictArgs(property, v);
    if (next !== v) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}

function isPair(item: unknown): item is { name: string; value: unknown } {
  return (
    typeof item === 'object' &&
    item !== null &&
    typeof (item as { name?: unknown }).name === 'string' &&
    'value' in item &&
    Object.keys(item).length === 2
  );
}
