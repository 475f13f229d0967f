/**
 * A typedoc plugin for test/package/docs.test.ts: with `--skipErrorChecking`, typedoc's own
 * type-check of its whole program (src, web, docs/entries) is skipped, and this checks the files the
 * build's `tsc` did not: all but src/. The build stamps dist/ only when src type-checks with the
 * same options (test/cli/build-dist.ts), and checking src again was most of the docs' CPU.
 * A type error found here is logged as typedoc logs its own, so the run fails the same way.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = fileURLToPath(new URL('../../src/', import.meta.url)).replaceAll('\\', '/');

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on('begin', (context) => {
    for (const program of context.programs) {
      const unbuilt = program
        .getSourceFiles()
        .filter((f) => !f.isDeclarationFile && !f.fileName.startsWith(src) && !f.fileName.includes('/node_modules/'));
      // Each file's pre-emit diagnostics repeat the program's global ones: kept once.
      const found = ts.sortAndDeduplicateDiagnostics(unbuilt.flatMap((f) => ts.getPreEmitDiagnostics(program, f)));
      for (const d of found)
        app.logger.error(
          ts.formatDiagnostic(d, {
            getCanonicalFileName: (f) => f,
            getCurrentDirectory: () => process.cwd(),
            getNewLine: () => '\n',
          }),
        );
    }
  });
}
