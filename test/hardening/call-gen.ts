import type { JsonSchema, ToolDefinition } from '../../src/index.js';
import type { Rng } from './rng.js';

const SAFE_PATHS = [
  'a.txt',
  'dir/b.txt',
  'dir',
  '.',
  'x/y/z.md',
  'big.txt',
  'crlf.txt',
  'bin.dat',
  'missing.txt',
  'dir/sub',
  'new/n.txt',
];
const WEIRD_STRINGS = [
  '',
  ' ',
  '\0',
  '\ud800',
  '\udfff',
  '\u202e',
  '💥',
  'null',
  'undefined',
  '[object Object]',
  '__proto__',
  'constructor',
  '{"a":1}',
  '<script>',
  '\r\n',
  '\t',
  '*',
  '**/*',
  '(',
  '[',
  '\\',
  '$',
  '%s%n',
  'a'.repeat(10_000),
  '1e309',
];
const WEIRD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  NaN,
  Infinity,
  -Infinity,
  [],
  [null],
  {},
  { a: 1 },
  [1, 'a', {}],
  '',
  'x',
  2 ** 31,
  -(2 ** 31),
  1e-300,
];

function deep(depth: number, asArray: boolean): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { d: v };
  return v;
}

function hugeString(rng: Rng): string {
  const size = rng.pick([100_000, 1_000_000, 3_000_000]);
  return rng.pick(['x', 'ab\n', '\u00e9', '\r\n', '\0']).repeat(Math.ceil(size / 2));
}

/** A value of roughly the right type for a schema, drawn from small workspace-shaped pools. */
function valueFor(rng: Rng, name: string, schema: JsonSchema): unknown {
  if (schema.enum && rng.chance(0.8)) return rng.pick(schema.enum);
  const variants = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (variants?.length) return valueFor(rng, name, rng.pick(variants));
  const type = Array.isArray(schema.type) ? rng.pick(schema.type) : schema.type;
  switch (type) {
    case 'string':
      if (/path|file|from|to|dir|cwd/i.test(name)) return rng.pick(SAFE_PATHS);
      if (/patch/i.test(name))
        return rng.pick([
          `*** Begin Patch\n*** Add File: p${rng.int(50)}.txt\n+hi\n*** End Patch\n`,
          '*** Begin Patch\n*** Update File: a.txt\n@@\n-alpha\n+ALPHA\n*** End Patch\n',
          '*** Begin Patch\n*** Delete File: dir/b.txt\n*** End Patch\n',
          '*** Begin Patch\n*** Update File: a.txt\n*** Move to: moved/a.txt\n@@\n alpha\n*** End Patch\n',
          '*** Begin Patch\n*** Update File: crlf.txt\n@@\n-one\r\n+uno\r\n*** End Patch',
          '*** Begin Patch\n*** Add File: a.txt\n+dup\n*** End Patch\n',
          '*** Begin Patch\ngarbage\n',
        ]);
      if (/sha|id$|^id|from|to/i.test(name)) return rng.pick(['0'.repeat(64), 'abcd', 'deadbeef', 'zz', '']);
      return rng.pick(['alpha', 'beta\n', 'line\r\n', 'x', '', 'alpha\nbeta\n', 'TODO', '\u00e9t\u00e9', '.*', 'a+b']);
    case 'integer':
      return rng.pick([0, 1, 2, 5, 50, 1000, -1]);
    case 'number':
      return rng.pick([0.5, 1, 2, 30]);
    case 'boolean':
      return rng.chance(0.5);
    case 'array':
      return Array.from({ length: rng.int(3) }, () => valueFor(rng, name, schema.items ?? {}));
    case 'object':
      return argsFor(rng, schema, 0.5);
    default:
      return rng.pick(WEIRD_VALUES);
  }
}

function argsFor(rng: Rng, schema: JsonSchema, optionalChance: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    if (required.has(key) || rng.chance(optionalChance)) out[key] = valueFor(rng, key, prop);
  }
  return out;
}

/** One mutation of an argument object: the ways a model (or an attacker) gets a call wrong. */
function mutate(rng: Rng, args: Record<string, unknown>, schema: JsonSchema): unknown {
  const keys = Object.keys(schema.properties ?? {});
  const key = keys.length ? rng.pick(keys) : 'path';
  switch (rng.int(12)) {
    case 0: {
      const copy = { ...args };
      delete copy[rng.pick(Object.keys(copy).length ? Object.keys(copy) : [key])];
      return copy;
    }
    case 1:
      return {
        ...args,
        [rng.pick(['extra', 'paths', 'file_path', 'Path', 'content ', '__proto__x', ''])]: rng.pick(WEIRD_VALUES),
      };
    case 2:
      return { ...args, [key]: rng.pick(WEIRD_VALUES) };
    case 3:
      return { ...args, [key]: rng.pick(WEIRD_STRINGS) };
    case 4:
      return { ...args, [key]: rng.chance(0.25) ? hugeString(rng) : 'y'.repeat(10_000) };
    case 5:
      return { ...args, [key]: deep(rng.pick([50, 1_000, 20_000]), rng.chance(0.5)) };
    case 6:
      return rng.pick<unknown>([null, undefined, [], 'path', 42, true, [args], '{"path":"a.txt"}']);
    case 7: {
      let rest: string;
      try {
        rest = JSON.stringify(args).slice(1);
      } catch {
        return args;
      }
      return JSON.parse(
        `{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}${rest === '}' ? '' : ','} ${rest}`,
      );
    }
    case 8:
      return Object.assign(Object.create(null), args);
    case 9:
      return { ...args, [key]: (typeof args[key] === 'string' ? args[key] : '') + rng.pick(WEIRD_STRINGS) };
    case 10:
      return Object.fromEntries(Object.entries(args).map(([k, v]) => [k.toUpperCase(), v]));
    default:
      return { ...args, [key]: Array.isArray(args[key]) ? {} : [args[key]] };
  }
}

export interface GeneratedCall {
  name: unknown;
  args: unknown;
}

/** A random call: mostly a known tool with plausible or mutated arguments, sometimes nonsense. */
export function generateCall(rng: Rng, tools: ToolDefinition[]): GeneratedCall {
  const roll = rng.int(100);
  if (roll < 8) {
    const real = rng.pick(tools).name;
    const name = rng.pick<unknown>([
      '',
      'nope',
      real.toUpperCase(),
      `${real} `,
      `functions.${real}`,
      `${real}_v2`,
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      42,
      null,
      undefined,
      { name: real },
      [real],
      'a'.repeat(100_000),
      '\0',
      real.replace('_', '-'),
    ]);
    return { name, args: rng.chance(0.5) ? {} : { path: 'a.txt' } };
  }
  const tool = rng.pick(tools);
  const valid = argsFor(rng, tool.schema, 0.4);
  if (roll < 45) return { name: tool.name, args: valid };
  let args: unknown = mutate(rng, valid, tool.schema);
  if (rng.chance(0.3) && args && typeof args === 'object' && !Array.isArray(args))
    args = mutate(rng, args as Record<string, unknown>, tool.schema);
  return { name: tool.name, args };
}
