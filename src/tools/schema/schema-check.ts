import type { JsonSchema } from './define.js';

/** One failed keyword, shaped as ajv reports it, so problems read the same as they always have. */
export interface SchemaError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message: string;
}

/** Appends the errors of `data` at `path`; valid when it appends none. */
export type Check = (data: unknown, path: string, errors: SchemaError[]) => void;

const JSON_TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'integer', 'string']);
/** Keywords that constrain data which this checker does not implement: a schema using one is refused, never half-checked. */
const UNSUPPORTED = [
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'if',
  'then',
  'else',
  'patternProperties',
  'dependencies',
  'dependentRequired',
  'dependentSchemas',
  'propertyNames',
  'contains',
  'uniqueItems',
  'additionalItems',
  'prefixItems',
  'unevaluatedProperties',
  'unevaluatedItems',
];
/** Keywords by the data type they apply to, in the order ajv (draft-07, allErrors) checks them. */
const GROUPS = {
  number: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf'],
  string: ['maxLength', 'minLength', 'pattern'],
  array: ['maxItems', 'minItems', 'items'],
  object: ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties'],
} as const;
type Group = keyof typeof GROUPS;

const isObject = (d: unknown): d is Record<string, unknown> => typeof d === 'object' && d !== null && !Array.isArray(d);
const IS_TYPE: Record<string, (d: unknown) => boolean> = {
  null: (d) => d === null,
  boolean: (d) => typeof d === 'boolean',
  object: isObject,
  array: Array.isArray,
  number: (d) => typeof d === 'number',
  integer: (d) => typeof d === 'number' && !((d as number) % 1) && !Number.isNaN(d),
  string: (d) => typeof d === 'string',
};

const fail = (
  instancePath: string,
  keyword: string,
  params: Record<string, unknown>,
  message: string,
): SchemaError => ({ instancePath, keyword, params, message });
const pointer = (key: string) => `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * Compile a JSON Schema (the subset tool schemas use: type, enum, const, properties, required,
 * additionalProperties, items, the number, length and count limits, pattern, anyOf, oneOf,
 * allOf, not) into a check that reports exactly what ajv with `allErrors` reports, in its order.
 * Annotations and unknown keywords are ignored, as ajv does with `strict: false`. A malformed
 * schema or an unsupported keyword throws here, when the schema is first used.
 */
export function compileSchema(schema: JsonSchema | boolean, at = '#'): Check {
  if (schema === true) return () => {};
  if (schema === false)
    return (_d, path, errors) => void errors.push(fail(path, 'false schema', {}, 'boolean schema is false'));
  if (!isObject(schema)) throw new Error(`${at} must be an object or a boolean`);
  const unsupported = UNSUPPORTED.find((k) => k in schema);
  if (unsupported) throw new Error(`${at} uses "${unsupported}", which Sandpit's schema checker does not support`);
  const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  for (const t of types)
    if (typeof t !== 'string' || !JSON_TYPES.has(t))
      throw new Error(`${at}/type must be a JSON type, not ${JSON.stringify(t)}`);
  const uses = (g: Group) => GROUPS[g].some((k) => schema[k] !== undefined);
  // ajv checks a lone type inside its keyword group (after const, enum and the combinators); any other type first.
  const lone = types.length === 1 ? types[0]! : '';
  const typeFirst = types.length > 0 && !(lone in GROUPS && uses(lone as Group));
  const typeError = (path: string) => fail(path, 'type', { type: schema.type }, `must be ${types.join(',')}`);
  const checks: Check[] = [];
  if (typeFirst)
    checks.push((d, path, errors) => void (types.some((t) => IS_TYPE[t]!(d)) || errors.push(typeError(path))));
  checks.push(...anyTypeChecks(schema, at));
  for (const group of Object.keys(GROUPS) as Group[]) {
    if (!uses(group)) continue;
    const inner = groupChecks(group, schema, at);
    const is = IS_TYPE[group]!;
    const reportsType = !typeFirst && types[0] === group;
    checks.push((d, path, errors) => {
      if (is(d)) for (const check of inner) check(d, path, errors);
      else if (reportsType) errors.push(typeError(path));
    });
  }
  if (checks.length === 1) return checks[0]!;
  return (d, path, errors) => {
    for (const check of checks) check(d, path, errors);
  };
}

function anyTypeChecks(schema: JsonSchema, at: string): Check[] {
  const out: Check[] = [];
  if ('const' in schema) {
    const value = schema.const;
    out.push(
      (d, path, errors) =>
        void (
          deepEqual(d, value) || errors.push(fail(path, 'const', { allowedValue: value }, 'must be equal to constant'))
        ),
    );
  }
  if (schema.enum !== undefined) {
    if (!Array.isArray(schema.enum)) throw new Error(`${at}/enum must be an array`);
    const values = schema.enum;
    out.push(
      (d, path, errors) =>
        void (
          values.some((v) => deepEqual(d, v)) ||
          errors.push(fail(path, 'enum', { allowedValues: values }, 'must be equal to one of the allowed values'))
        ),
    );
  }
  if (schema.not !== undefined) {
    const sub = compileSchema(schema.not as JsonSchema, `${at}/not`);
    out.push(
      (d, path, errors) => void (isValid(sub, d, path) && errors.push(fail(path, 'not', {}, 'must NOT be valid'))),
    );
  }
  if (schema.anyOf !== undefined) {
    const subs = branches(schema.anyOf, `${at}/anyOf`);
    out.push((d, path, errors) => {
      const before = errors.length;
      for (const sub of subs) {
        const n = errors.length;
        sub(d, path, errors);
        if (errors.length === n) return void (errors.length = before);
      }
      errors.push(fail(path, 'anyOf', {}, 'must match a schema in anyOf'));
    });
  }
  if (schema.oneOf !== undefined) {
    const subs = branches(schema.oneOf, `${at}/oneOf`);
    out.push((d, path, errors) => {
      const before = errors.length;
      const passing: number[] = [];
      subs.forEach((sub, i) => {
        const n = errors.length;
        sub(d, path, errors);
        if (errors.length === n) passing.push(i);
      });
      if (passing.length === 1) errors.length = before;
      else
        errors.push(
          fail(
            path,
            'oneOf',
            { passingSchemas: passing.length > 1 ? passing.slice(0, 2) : null },
            'must match exactly one schema in oneOf',
          ),
        );
    });
  }
  if (schema.allOf !== undefined) {
    const subs = branches(schema.allOf, `${at}/allOf`);
    out.push((d, path, errors) => {
      for (const sub of subs) sub(d, path, errors);
    });
  }
  return out;
}

function groupChecks(group: Group, schema: JsonSchema, at: string): Check[] {
  const out: Check[] = [];
  for (const keyword of GROUPS[group]) {
    const value = schema[keyword];
    if (value === undefined) continue;
    const check = keywordCheck(keyword, value, schema, `${at}/${keyword}`);
    if (check) out.push(check);
  }
  return out;
}

const LIMITS: Record<string, [string, (d: number, limit: number) => boolean]> = {
  maximum: ['<=', (d, l) => d <= l],
  minimum: ['>=', (d, l) => d >= l],
  exclusiveMaximum: ['<', (d, l) => d < l],
  exclusiveMinimum: ['>', (d, l) => d > l],
};
const COUNTS: Record<string, [string, string, (d: any) => number]> = {
  maxLength: ['more', 'characters', codePoints],
  minLength: ['fewer', 'characters', codePoints],
  maxItems: ['more', 'items', (d: unknown[]) => d.length],
  minItems: ['fewer', 'items', (d: unknown[]) => d.length],
  maxProperties: ['more', 'properties', (d: object) => Object.keys(d).length],
  minProperties: ['fewer', 'properties', (d: object) => Object.keys(d).length],
};

function keywordCheck(keyword: string, value: unknown, schema: JsonSchema, at: string): Check | null {
  const number = () => {
    if (typeof value !== 'number') throw new Error(`${at} must be a number`);
    return value;
  };
  if (keyword in LIMITS) {
    const limit = number();
    const [comparison, ok] = LIMITS[keyword]!;
    return (d, path, errors) =>
      void (
        ok(d as number, limit) ||
        errors.push(fail(path, keyword, { comparison, limit }, `must be ${comparison} ${limit}`))
      );
  }
  if (keyword in COUNTS) {
    const limit = number();
    if (limit < 0 || limit % 1) throw new Error(`${at} must be a non-negative integer`);
    const [comp, unit, count] = COUNTS[keyword]!;
    const tooMany = comp === 'more';
    const isLength = count === codePoints;
    return (d, path, errors) => {
      // A string has at most as many code points as UTF-16 units and at least half as many, so most lengths need no count.
      if (isLength && (tooMany ? (d as string).length <= limit : Math.ceil((d as string).length / 2) >= limit)) return;
      const n = count(d);
      if (tooMany ? n > limit : n < limit)
        errors.push(fail(path, keyword, { limit }, `must NOT have ${comp} than ${limit} ${unit}`));
    };
  }
  switch (keyword) {
    case 'multipleOf': {
      const m = number();
      if (m <= 0) throw new Error(`${at} must be greater than 0`);
      return (d, path, errors) => {
        const res = (d as number) / m;
        if (res !== parseInt(String(res), 10))
          errors.push(fail(path, keyword, { multipleOf: m }, `must be multiple of ${m}`));
      };
    }
    case 'pattern': {
      if (typeof value !== 'string') throw new Error(`${at} must be a string`);
      const re = new RegExp(value, 'u');
      return (d, path, errors) =>
        void (
          re.test(d as string) || errors.push(fail(path, keyword, { pattern: value }, `must match pattern "${value}"`))
        );
    }
    case 'items': {
      if (Array.isArray(value))
        throw new Error(`${at} as an array (tuple items) is not supported by Sandpit's schema checker`);
      const sub = compileSchema(value as JsonSchema, at);
      return (d, path, errors) => {
        (d as unknown[]).forEach((item, i) => sub(item, `${path}/${i}`, errors));
      };
    }
    case 'required': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
        throw new Error(`${at} must be an array of strings`);
      const names = value as string[];
      return (d, path, errors) => {
        for (const name of names) {
          if ((d as Record<string, unknown>)[name] === undefined)
            errors.push(fail(path, keyword, { missingProperty: name }, `must have required property '${name}'`));
        }
      };
    }
    case 'properties':
      return propertiesCheck(value, at);
    case 'additionalProperties':
      return additionalCheck(value, schema, at);
  }
  return null;
}

function propertiesCheck(value: unknown, at: string): Check {
  if (!isObject(value)) throw new Error(`${at} must be an object`);
  const props = Object.keys(value)
    .filter((k) => k !== '__proto__')
    .map((name) => [name, pointer(name), compileSchema(value[name] as JsonSchema, `${at}/${name}`)] as const);
  return (d, path, errors) => {
    for (const [name, key, sub] of props) {
      const v = (d as Record<string, unknown>)[name];
      if (v !== undefined) sub(v, path + key, errors);
    }
  };
}

function additionalCheck(value: unknown, schema: JsonSchema, at: string): Check {
  const known = new Set(Object.keys(isObject(schema.properties) ? schema.properties : {}));
  if (value === false) {
    return (d, path, errors) => {
      for (const key in d as object) {
        if (!known.has(key))
          errors.push(
            fail(path, 'additionalProperties', { additionalProperty: key }, 'must NOT have additional properties'),
          );
      }
    };
  }
  const sub = compileSchema(value as JsonSchema, at);
  return (d, path, errors) => {
    for (const key in d as object)
      if (!known.has(key)) sub((d as Record<string, unknown>)[key], path + pointer(key), errors);
  };
}

function branches(value: unknown, at: string): Check[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error(`${at} must be a non-empty array of schemas`);
  return value.map((s, i) => compileSchema(s as JsonSchema, `${at}/${i}`));
}

function isValid(check: Check, data: unknown, path: string): boolean {
  const errors: SchemaError[] = [];
  check(data, path, errors);
  return errors.length === 0;
}

/** Length in Unicode code points, as JSON Schema counts it (a surrogate pair is one character). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    n++;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a !== a && b !== b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a))
    return a.length === (b as unknown[]).length && a.every((v, i) => deepEqual(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
