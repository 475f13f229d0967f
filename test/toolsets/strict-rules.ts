/**
 * OpenAI's published rules for strict function schemas (Structured Outputs), written out
 * independently of the exporter so that the test does not grade the exporter by itself.
 * https://platform.openai.com/docs/guides/structured-outputs#supported-schemas
 */
const SUPPORTED: Record<string, Set<string>> = {
  any: new Set(['type', 'description', 'enum', 'const', 'anyOf', '$ref', '$defs', 'title']),
  string: new Set(['pattern', 'format']),
  number: new Set(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']),
  integer: new Set(['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum']),
  array: new Set(['items', 'minItems', 'maxItems']),
  object: new Set(['properties', 'required', 'additionalProperties']),
  boolean: new Set(),
  null: new Set(),
};
const TYPES = new Set(Object.keys(SUPPORTED).filter((t) => t !== 'any'));

/** Every way `schema` breaks strict mode, by JSON pointer; empty when OpenAI would accept it. */
export function strictProblems(schema: any, at = '', depth = 0, root = true): string[] {
  const problems: string[] = [];
  if (typeof schema !== 'object' || schema === null) return [`${at}: a schema must be an object`];
  if (root && (schema.type !== 'object' || schema.anyOf)) problems.push(`${at}: the root must be an object, not anyOf`);
  if (depth > 10) problems.push(`${at}: nested more than 10 levels`);
  const types: string[] = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const t of types) if (!TYPES.has(t)) problems.push(`${at}: unsupported type ${t}`);
  if (types.length === 0 && !schema.anyOf && !schema.enum && !schema.const && !schema.$ref)
    problems.push(`${at}: no type`);
  const allowed = new Set([...SUPPORTED.any!, ...types.flatMap((t) => [...(SUPPORTED[t] ?? [])])]);
  for (const key of Object.keys(schema))
    if (!allowed.has(key)) problems.push(`${at}: keyword ${key} is not supported here`);
  if (schema.enum && types.includes('null') && !schema.enum.includes(null))
    problems.push(`${at}: nullable enum without null in it`);
  if (types.includes('object')) {
    if (schema.additionalProperties !== false) problems.push(`${at}: additionalProperties must be false`);
    const keys = Object.keys(schema.properties ?? {});
    const required = new Set(schema.required ?? []);
    for (const key of keys) if (!required.has(key)) problems.push(`${at}/properties/${key}: must be required`);
    for (const key of required)
      if (!keys.includes(key as string)) problems.push(`${at}: required ${String(key)} is not a property`);
    for (const key of keys)
      problems.push(...strictProblems(schema.properties[key], `${at}/properties/${key}`, depth + 1, false));
  }
  if (types.includes('array') && schema.items)
    problems.push(...strictProblems(schema.items, `${at}/items`, depth + 1, false));
  if (schema.anyOf)
    (schema.anyOf as unknown[]).forEach((s, i) =>
      problems.push(...strictProblems(s, `${at}/anyOf/${i}`, depth + 1, false)),
    );
  return problems;
}
