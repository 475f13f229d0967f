import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Problem } from '../workspace/errors.js';
import type { JsonSchema } from './define.js';

const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: false });
const compiled = new WeakMap<JsonSchema, ValidateFunction>();

/** Check arguments against a schema; one problem per mistake, each naming the argument. */
export function validateArgs(schema: JsonSchema, args: unknown): Problem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(args)) return [];
  return dedupe((validate.errors ?? []).map(toProblem));
}

function toProblem(error: ErrorObject): Problem {
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
      return { path: at, message: `must be one of: ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
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
