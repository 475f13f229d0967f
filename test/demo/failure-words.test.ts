import { describe, expect, it } from 'vitest';
import { failureText, nextStep } from '../../demo/page/failure-words.js';
import { ERROR_CODES } from '../../src/contract/errors.js';

// Issue 26: a failure toast says what happened and what a person can do next, never a bare code.

describe('failure toasts in the playground', () => {
  it('puts the next step after the reason, once, with one full stop between', () => {
    expect(failureText('Could not move a.txt', { code: 'ALREADY_EXISTS', message: "'b.txt' already exists." })).toBe(
      "Could not move a.txt: 'b.txt' already exists. Pick another name, or delete or rename the one that is there first.",
    );
    expect(failureText('Could not export the workspace', new Error('the zip could not be written'))).toBe(
      'Could not export the workspace: the zip could not be written. Nothing was changed: try again.',
    );
  });

  it('has a step of its own for every error code a tool can give', () => {
    const listed: readonly string[] = ERROR_CODES;
    // Codes a person cannot meet from the page's own buttons (the model's errors) may share the default.
    const modelOnly = new Set([
      'UNKNOWN_TOOL',
      'NO_MATCH',
      'AMBIGUOUS_MATCH',
      'NOT_READ',
      'PATCH_PARSE_ERROR',
      'PATCH_CONFLICT',
      'BINARY_FILE',
      'DECODE_ERROR',
      'UNSUPPORTED_FILE_TYPE',
    ]);
    const generic = nextStep({ code: 'SOMETHING_NEW', message: 'x' });
    for (const code of listed.filter((c) => !modelOnly.has(c)))
      expect({ code, step: nextStep({ code, message: 'x' }) }).not.toEqual({ code, step: generic });
  });
});
