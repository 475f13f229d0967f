import type { Problem } from '../../contract/index.js';
import type { JsonSchema } from './define.js';
import { compileSchema, type Check, type SchemaError } from './schema-check.js';

// A small checker instead of ajv: ajv compiles with `new Function` and weighed a quarter of the
// browser worker; test/bundle/schema-parity.test.ts holds the two to the same problems.
const compiled = new WeakMap<JsonSchema, Check>();

/**
 * Check arguments against a schema; one problem per mistake, each naming the argument. Throws
 * when the schema itself is malformed or uses a keyword the checker does not support.
 */
export function validateArgs(schema: JsonSchema, args: unknown): Problem[] {
  let check = compiled.get(schema);
  if (!check) {
    check = compileSchema(schema);
    compiled.set(schema, check);
  }
  const errors: SchemaError[] = [];
  check(args, '', errors);
  return errors.length === 0 ? [] : dedupe(errors.map(toProblem));
}

function toProblem(error: SchemaError): Problem {
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
}

function dedupe(problems: Problem[]): Problem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
