import { isDeepStrictEqual } from 'node:util';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import type { JsonSchema, ToolDefinition } from '../../src/index.js';
import { nodeTools } from '../../src/node/index.js';
import { manifestSchema } from '../../src/node/manifests/schema.js';
import { validateArgs } from '../../src/tools/schema/validate.js';
import { canonicalTools } from '../../src/toolsets/canonical.js';
import { coworkTools } from '../../src/toolsets/cowork.js';
import { fileManagerTools } from '../../src/toolsets/file-manager.js';
import { fsProcessTools } from '../../src/toolsets/fs-process.js';
import { generateCall } from '../hardening/call-gen.js';
import { createRng } from '../hardening/rng.js';

// Tool arguments used to be checked by ajv; the browser bundle now carries a small checker
// instead. This holds the two to the same problems, in the same order, for every schema we ship.
const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });

/** The problems ajv's errors made before the switch (the old validate.ts, kept as the reference). */
function ajvProblems(schema: JsonSchema, args: unknown) {
  const validate = ajv.compile(schema);
  if (validate(args)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? [])
    .map((error: ErrorObject) => {
      const at = error.instancePath;
      const params = error.params as Record<string, unknown>;
      switch (error.keyword) {
        case 'required':
          return { path: `${at}/${String(params.missingProperty)}`, message: 'is required but missing' };
        case 'additionalProperties':
          return { path: `${at}/${String(params.additionalProperty)}`, message: 'is not a known argument' };
        case 'type':
          return { path: at, message: `must be ${String(params.type).replace(',', ' or ')}` };
        case 'enum':
          return {
            path: at,
            message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
          };
        default:
          return { path: at, message: error.message ?? 'is not valid' };
      }
    })
    .filter((p) => !seen.has(`${p.path}\u0000${p.message}`) && !!seen.add(`${p.path}\u0000${p.message}`));
}

/** Every keyword the checker implements, nested the ways tool schemas nest them. */
const kitchenSink: JsonSchema = {
  type: 'object',
  properties: {
    n: { type: 'integer', minimum: 1, maximum: 10, multipleOf: 2 },
    x: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    s: { type: 'string', minLength: 2, maxLength: 4, pattern: '^[a-z💥]+$' },
    e: { enum: ['a', 1, null, { k: [1] }] },
    c: { const: { a: [1, 2] } },
    list: {
      type: 'array',
      items: { type: 'object', properties: { p: { type: 'string' } }, required: ['p'], additionalProperties: false },
      minItems: 1,
      maxItems: 2,
    },
    either: { oneOf: [{ type: 'string' }, { type: 'integer' }, { type: 'number', minimum: 5 }] },
    any: {
      anyOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string' }, minItems: 1 },
      ],
    },
    all: { allOf: [{ type: 'string' }, { minLength: 2 }] },
    not: { not: { type: 'string' } },
    multi: { type: ['string', 'null', 'boolean'] },
    map: { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 1, maxProperties: 2 },
    bare: { minimum: 3, minLength: 2, required: ['q'] },
  },
  required: ['n', 's'],
  additionalProperties: false,
};
const sinkValues: unknown[] = [
  null,
  true,
  0,
  1,
  2,
  3,
  4,
  6,
  12,
  1.5,
  0.5,
  -1,
  5,
  5.5,
  '',
  'a',
  'ab',
  'abcde',
  'AB',
  '💥💥',
  '💥',
  'a1',
  [],
  ['a'],
  ['a', 'b', 'c'],
  [{ p: 'x' }],
  [{ p: 1, q: 2 }],
  [{}],
  {},
  { a: [1, 2] },
  { a: [2, 1] },
  { k: [1] },
  { q: 1 },
  { a: 1, b: 2, c: 3 },
  { a: 'x' },
];

function sinkArgs(rng: ReturnType<typeof createRng>): unknown {
  const keys = [...Object.keys(kitchenSink.properties!), 'extra', 'a/b~c'];
  const args: Record<string, unknown> = {};
  for (const key of keys) if (rng.chance(0.35)) args[key] = rng.pick(sinkValues);
  return rng.chance(0.05) ? rng.pick(sinkValues) : args;
}

function shown(args: unknown): string {
  try {
    return String(JSON.stringify(args)).slice(0, 300);
  } catch {
    return '(too deep to show)';
  }
}

function toolsets(): Array<[string, ToolDefinition[]]> {
  return [
    ['canonical', canonicalTools],
    ['file_manager', fileManagerTools()],
    ['fs_process', fsProcessTools()],
    ['cowork', coworkTools()],
    ['node', nodeTools().tools],
  ];
}

describe('the schema checker reports what ajv reported', () => {
  for (const [name, tools] of toolsets()) {
    it(`for random and broken calls to the ${name} tools`, () => {
      const rng = createRng(0x5eed + name.length);
      let invalid = 0;
      for (let i = 0; i < 3000; i++) {
        const call = generateCall(rng, tools);
        const tool = tools.find((t) => t.name === call.name) ?? rng.pick(tools);
        const ours = validateArgs(tool.schema, call.args);
        const theirs = ajvProblems(tool.schema, call.args);
        // The arguments are written out for a failing call's message only: writing them out for
        // every call (some nest deep enough to overflow JSON.stringify) was half of this file's CPU.
        expect(ours, isDeepStrictEqual(ours, theirs) ? tool.name : `${tool.name} ${shown(call.args)}`).toEqual(theirs);
        if (ours.length > 0) invalid++;
      }
      expect(invalid).toBeGreaterThan(300);
    });
  }

  it('for every keyword it implements, including the manifest schema', () => {
    const rng = createRng(7);
    for (let i = 0; i < 5000; i++) {
      const args = sinkArgs(rng);
      const ours = validateArgs(kitchenSink, args);
      const theirs = ajvProblems(kitchenSink, args);
      expect(ours, isDeepStrictEqual(ours, theirs) ? 'kitchen sink' : JSON.stringify(args)).toEqual(theirs);
    }
    const manifests: unknown[] = [
      {},
      { description: '', command: [] },
      { description: 'x', command: ['a'], name: 'Bad-Name', input: 'nope', env: { A: 1 }, platforms: [] },
      { description: 'x', command: ['a', 2], timeout: 3, parameters: [] },
      'manifest',
    ];
    for (const m of manifests) expect(validateArgs(manifestSchema, m)).toEqual(ajvProblems(manifestSchema, m));
  });

  it('refuses a malformed schema or a keyword it does not implement, rather than passing everything', () => {
    expect(() => validateArgs({ type: 'object', properties: { x: { type: 'wat' } } }, {})).toThrow(/JSON type/);
    expect(() => validateArgs({ type: 'object', properties: { x: { $ref: '#/definitions/y' } } }, {})).toThrow(/\$ref/);
    expect(() => validateArgs({ type: 'object', required: 'x' } as unknown as JsonSchema, {})).toThrow(
      /array of strings/,
    );
    expect(() => validateArgs({ type: 'string', pattern: '(' }, '')).toThrow();
  });
});
