import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

describe('native toolsets against the official SDK types', () => {
  it('tool entries and presented outputs assign to openai and @anthropic-ai/sdk types with no cast', () => {
    const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    )!;
    const file = fileURLToPath(new URL('./sdk-assigns.ts', import.meta.url));
    const program = ts.createProgram([file], { ...config.options, noEmit: true });
    const errors = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(errors).toEqual([]);
  }, 300_000);
});
