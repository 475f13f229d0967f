import type { JsonSchema } from './tool.js';

/** The phantom keys (types only: they never exist at run time). */
export declare const DATA: unique symbol;
export declare const PROPERTIES: unique symbol;

/**
 * A JSON Schema that also carries, at the type level only, the TypeScript type of the data it
 * accepts. The object itself is plain JSON Schema: the phantom key never exists at run time.
 */
export type Schema<T> = JsonSchema & {
  /** the data type, at the type level only */
  readonly [DATA]?: T;
};

/** The TypeScript type a schema accepts (`unknown` for a plain, untyped JSON Schema). */
export type Infer<S> = S extends {
  /** the data type a {@link Schema} carries */
  readonly [DATA]?: infer T;
}
  ? unknown extends T
    ? unknown
    : T
  : unknown;

/** An object property that may be left out (see `s.optional`). */
export class OptionalProperty<T> {
  /** marks the property as one that may be left out */
  readonly optional = true as const;
  /** @param schema - the property's schema */
  constructor(readonly schema: Schema<T>) {}
}

type Property = Schema<unknown> | OptionalProperty<unknown>;
/** The properties `s.object` takes: a schema each, wrapped in `s.optional` when it may be left out. */
export type SchemaProperties = Record<string, Property>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};
type RequiredKeys<P> = { [K in keyof P]: P[K] extends OptionalProperty<unknown> ? never : K }[keyof P];
type OptionalKeys<P> = { [K in keyof P]: P[K] extends OptionalProperty<unknown> ? K : never }[keyof P];
/** The data type of an object schema built from properties. */
export type ObjectOf<P> = Simplify<
  { [K in RequiredKeys<P>]: Infer<P[K]> } & {
    [K in OptionalKeys<P>]?: P[K] extends OptionalProperty<infer T> ? T : never;
  }
>;

/** An object schema that remembers its properties, so another schema can reuse some of them (`s.pick`). */
export type ObjectSchema<P> = Schema<ObjectOf<P>> & {
  /** the properties it was built from, at the type level only */
  readonly [PROPERTIES]?: P;
};

/** The keywords a builder takes beside the ones it sets itself (description, limits, default...). */
export type SchemaKeywords = Omit<JsonSchema, 'type' | 'properties' | 'required' | 'items' | 'enum'>;

const typed = <T>(type: string, keywords: SchemaKeywords = {}): Schema<T> => ({ type, ...keywords }) as Schema<T>;

/**
 * A tiny builder for the schemas tools declare once: each call gives the JSON Schema object and
 * the TypeScript type it describes, so arguments and results are never written twice.
 * Object properties are required unless wrapped in `s.optional`; objects refuse unknown keys
 * unless `additionalProperties` is given.
 */
export const s = {
  /** a string */
  string: (keywords?: SchemaKeywords): Schema<string> => typed('string', keywords),
  /** a whole number */
  integer: (keywords?: SchemaKeywords): Schema<number> => typed('integer', keywords),
  /** any number */
  number: (keywords?: SchemaKeywords): Schema<number> => typed('number', keywords),
  /** true or false */
  boolean: (keywords?: SchemaKeywords): Schema<boolean> => typed('boolean', keywords),
  /** only null */
  null: (keywords?: SchemaKeywords): Schema<null> => typed('null', keywords),
  /** one of some strings */
  enum: <const V extends readonly string[]>(values: V, keywords: SchemaKeywords = {}): Schema<V[number]> =>
    ({ type: 'string', enum: values, ...keywords }) as Schema<V[number]>,
  /** exactly this value */
  literal: <const V extends string | number | boolean>(value: V, keywords: SchemaKeywords = {}): Schema<V> =>
    ({ const: value, ...keywords }) as Schema<V>,
  /** an array whose items all match `items` */
  array: <I extends JsonSchema>(items: I, keywords: SchemaKeywords = {}): Schema<Array<Infer<I>>> =>
    ({ type: 'array', items, ...keywords }) as Schema<Array<Infer<I>>>,
  /** an object with these properties (required unless `s.optional`), refusing unknown keys unless `additionalProperties` says otherwise */
  object<P extends SchemaProperties>(properties: P, keywords: SchemaKeywords = {}): ObjectSchema<P> {
    const shown: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const [key, value] of Object.entries(properties)) {
      if (value instanceof OptionalProperty) shown[key] = value.schema;
      else {
        shown[key] = value;
        required.push(key);
      }
    }
    const { description, ...rest } = keywords;
    return {
      type: 'object',
      ...(description !== undefined ? { description } : {}),
      properties: shown,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
      ...rest,
    } as ObjectSchema<P>;
  },
  /** Some properties of an object schema, required or optional as they are there, to build another from. */
  pick<P, const K extends keyof P & string>(schema: ObjectSchema<P>, keys: readonly K[]): Pick<P, K> {
    const out: Record<string, Property> = {};
    for (const key of keys) {
      const property = schema.properties?.[key];
      if (!property) throw new Error(`the schema has no property '${key}'`);
      out[key] = schema.required?.includes(key) ? property : new OptionalProperty(property);
    }
    return out as Pick<P, K>;
  },
  /** an object whose keys are free and whose values all match `values` */
  record: <V extends JsonSchema>(values: V, keywords: SchemaKeywords = {}): Schema<Record<string, Infer<V>>> =>
    ({ type: 'object', additionalProperties: values, ...keywords }) as Schema<Record<string, Infer<V>>>,
  /** a value that matches at least one of `schemas` */
  anyOf: <const S extends readonly JsonSchema[]>(schemas: S, keywords: SchemaKeywords = {}): Schema<Infer<S[number]>> =>
    ({ ...keywords, anyOf: schemas }) as Schema<Infer<S[number]>>,
  /** the schema, or null */
  nullable<T>(schema: Schema<T>): Schema<T | null> {
    const type = schema.type;
    if (type === undefined) return { anyOf: [schema, { type: 'null' }] } as Schema<T | null>;
    const nullable: JsonSchema = { ...schema, type: [...(Array.isArray(type) ? type : [type]), 'null'] };
    if (schema.enum) nullable.enum = [...schema.enum, null];
    return nullable as Schema<T | null>;
  },
  /** any JSON value */
  unknown: (keywords: SchemaKeywords = {}): Schema<unknown> => ({ ...keywords }) as Schema<unknown>,
  /** an object property that may be left out */
  optional: <T>(schema: Schema<T>): OptionalProperty<T> => new OptionalProperty(schema),
};
