import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const here = (name: string) => fileURLToPath(new URL(`./sdk-fixture/${name}`, import.meta.url));

/** Type-check files with the project's compiler options; the messages of every error. */
function typeErrors(files: string[]): string[] {
  const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  )!;
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('exports against the official SDK types', () => {
  // One program for both files: compiling src twice would double the cost on a shared machine.
  it('every toolset assigns to ChatCompletionTool[], Responses FunctionTool[] and Anthropic Tool[] with no cast, and the old loose shape would not', () => {
    // loose.ts holds an @ts-expect-error over the pre-fix shape: were it to assign, the unused
    // directive would itself be an error here.
    expect(typeErrors([here('assigns.ts'), here('loose.ts')])).toEqual([]);
  }, 120_000);
});
