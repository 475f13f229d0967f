import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { distIsCurrent } from '../cli/build-dist.js';

const fixtures = {
  assigns: fileURLToPath(new URL('./sdk-fixture/assigns.ts', import.meta.url)),
  loose: fileURLToPath(new URL('./sdk-fixture/loose.ts', import.meta.url)),
  native: fileURLToPath(new URL('../native/sdk-assigns.ts', import.meta.url)),
};

let diagnostics: Array<{ file: string; message: string }> | undefined;

/**
 * Type-check every fixture with the project's compiler options in one program: each program
 * compiles src and the SDKs' declarations again, and that is nearly all of its time. The rest of
 * the program (src) is checked too, unless the build this run reuses or made already did: its tsc
 * stamps dist/ only when src has no error (checking src again here was 60% of this file).
 */
function typeErrors(files: string[]): string[] {
  if (!diagnostics) {
    const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const program = ts.createProgram(Object.values(fixtures), { ...config.options, noEmit: true });
    const checked = distIsCurrent()
      ? [
          ...program.getConfigFileParsingDiagnostics(),
          ...program.getOptionsDiagnostics(),
          ...program.getGlobalDiagnostics(),
          ...Object.values(fixtures).flatMap((f) => {
            const file = program.getSourceFile(f);
            return [
              ...program.getSyntacticDiagnostics(file),
              ...program.getSemanticDiagnostics(file),
              ...program.getDeclarationDiagnostics(file),
            ];
          }),
        ]
      : ts.getPreEmitDiagnostics(program);
    diagnostics = checked.map((d) => ({
      file: d.file?.fileName ?? '',
      message: `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
    }));
  }
  // An error outside every fixture (in src) fails every test; one in a fixture, only its own.
  const others = new Set(Object.values(fixtures).filter((f) => !files.includes(f)));
  return diagnostics.filter((d) => !others.has(d.file)).map((d) => d.message);
}

describe('exports against the official SDK types', () => {
  it('every toolset assigns to ChatCompletionTool[], Responses FunctionTool[] and Anthropic Tool[] with no cast, and the old loose shape would not', () => {
    // loose.ts holds an @ts-expect-error over the pre-fix shape: were it to assign, the unused
    // directive would itself be an error here.
    expect(typeErrors([fixtures.assigns, fixtures.loose])).toEqual([]);
  });

  it('native toolsets: tool entries and presented outputs assign to openai and @anthropic-ai/sdk types with no cast', () => {
    expect(typeErrors([fixtures.native])).toEqual([]);
  });
});
