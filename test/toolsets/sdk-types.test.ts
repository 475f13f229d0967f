import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { distIsCurrent } from '../cli/build-dist.js';
import { fromDeclarations, resolveModulesThrough } from '../support/dist-declarations.js';

const fixtures = {
  assigns: fileURLToPath(new URL('./sdk-fixture/assigns.ts', import.meta.url)),
  loose: fileURLToPath(new URL('./sdk-fixture/loose.ts', import.meta.url)),
  native: fileURLToPath(new URL('../native/sdk-assigns.ts', import.meta.url)),
};

let diagnostics: Array<{ file: string; message: string }> | undefined;

/**
 * A compiler host that reads a module of src from the declarations the current build wrote for it
 * (a third of this file's CPU was inferring them again from the code). JSDoc is parsed as tsc
 * parses it, only where it can change a type.
 */
function hostReadingDist(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  host.resolveModuleNameLiterals = resolveModulesThrough(host, fromDeclarations);
  return host;
}

/**
 * Type-check every fixture with the project's compiler options in one program: each program
 * compiles the SDKs' declarations again, and that is most of its time. When the build this run
 * reuses or made is current, src is not checked again (its tsc stamps dist/ only when src has no
 * error; checking src here was 60% of this file) and is read from the declarations it wrote;
 * otherwise the program compiles src itself and checks all of it.
 */
function typeErrors(files: string[]): string[] {
  if (!diagnostics) {
    const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const options = { ...config.options, noEmit: true };
    const built = distIsCurrent();
    const program = ts.createProgram(Object.values(fixtures), options, built ? hostReadingDist(options) : undefined);
    const checked = built
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
