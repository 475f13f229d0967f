import type { JsonSchema, ToolDefinition } from '../../src/index.js';

/** One way a tool takes a path: the arguments with the fuzzed path in one slot. */
export interface PathUse {
  tool: string;
  /** the argument path of the slot, e.g. `/path` or `/operations/0/from` */
  slot: string;
  mutates: boolean;
  args(path: string): unknown;
  /** a glob pattern rather than a path: refusing it is not required, only staying inside */
  pattern?: boolean;
}

const PATH_NAME =
  /(^|_)(path|paths|file|files|from|to|dir|directory|cwd|source|src|dest|destination|target|folder|root)$/i;

/** A value the schema accepts, for an argument that is not the fuzzed slot. */
function filler(name: string, schema: JsonSchema): unknown {
  if (schema.default !== undefined && typeof schema.default !== 'object') return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants?.length) return filler(name, variants[0]!);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      if (/old|pattern|expected|search|query/i.test(name)) return 'secret';
      if (/command/i.test(name)) return 'true';
      // a multi-part path starts at the root whatever the cwd
      if (PATH_NAME.test(name)) return 'dir/f.txt';
      return 'pwned\n';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    // the dangerous choice for flags such as recursive and overwrite
    case 'boolean':
      return !/dry_run|background/i.test(name);
    case 'array':
      return schema.items ? [filler(name, schema.items)] : [];
    case 'object':
      return fillObject(schema);
    default:
      return 'x';
  }
}

function fillObject(schema: JsonSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of schema.required ?? []) out[key] = filler(key, schema.properties?.[key] ?? {});
  return out;
}

function isString(schema: JsonSchema): boolean {
  return schema.type === 'string' || (Array.isArray(schema.type) && schema.type.includes('string'));
}

/** Every slot in an object schema that takes a path, with a maker that places the fuzzed path there. */
function slotsOf(schema: JsonSchema, at: string): Array<{ slot: string; make: (p: string) => unknown }> {
  const found: Array<{ slot: string; make: (p: string) => unknown }> = [];
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants && !schema.properties) {
    variants.forEach((v, i) => found.push(...slotsOf(v, `${at}{${i}}`)));
    return found;
  }
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    // a string with a pattern is an identifier (a snapshot id), not a path
    if (typeof prop.pattern === 'string') continue;
    const base = () => fillObject(schema);
    if (PATH_NAME.test(key) && isString(prop)) {
      found.push({ slot: `${at}/${key}`, make: (p) => ({ ...base(), [key]: p }) });
    } else if (PATH_NAME.test(key) && prop.type === 'array' && prop.items && isString(prop.items)) {
      found.push({ slot: `${at}/${key}/0`, make: (p) => ({ ...base(), [key]: [p] }) });
    } else if (
      prop.type === 'array' &&
      prop.items &&
      (prop.items.type === 'object' || prop.items.anyOf || prop.items.oneOf)
    ) {
      for (const inner of slotsOf(prop.items, `${at}/${key}/0`))
        found.push({ slot: inner.slot, make: (p) => ({ ...base(), [key]: [inner.make(p)] }) });
    } else if (prop.type === 'object' && prop.properties) {
      for (const inner of slotsOf(prop, `${at}/${key}`))
        found.push({ slot: inner.slot, make: (p) => ({ ...base(), [key]: inner.make(p) }) });
    }
  }
  return found;
}

/** Every path-taking slot of every tool in a toolset, found from the schemas alone. */
export function pathUses(tools: ToolDefinition[]): PathUse[] {
  return tools.flatMap((tool) =>
    slotsOf(tool.schema, '').map((s) => ({ tool: tool.name, slot: s.slot, mutates: tool.mutates, args: s.make })),
  );
}
