import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation';

/**
 * The SDK client's own output-schema validator (Ajv), with each compiled schema kept for the test
 * process, keyed by the schema's JSON: every new Client compiles every tool's output schema again
 * at `listTools`, which was about a seventh of mcp-http.test.ts's CPU. The same Ajv code judges
 * the same schemas; only the compiling is shared.
 */
const ajv = new AjvJsonSchemaValidator();
const compiled = new Map<string, ReturnType<jsonSchemaValidator['getValidator']>>();

export const sharedSchemaValidator: jsonSchemaValidator = {
  getValidator(schema) {
    const key = JSON.stringify(schema);
    let validator = compiled.get(key);
    if (!validator) {
      validator = ajv.getValidator(schema);
      compiled.set(key, validator);
    }
    return validator as never;
  },
};
