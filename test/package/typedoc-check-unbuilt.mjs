/**
 * A typedoc plugin for test/package/docs.test.ts: with `--skipErrorChecking`, typedoc's own
 * type-check of its whole program (src, web, docs/entries) is skipped, and this checks the files the
 * build's `tsc` runs did not. The build stamps dist/ only when its steps pass, with the same options
 * (test/cli/build-dist.ts): `tsc -p tsconfig.build.json` checks src/, and the declaration step of
 * scripts/build-web.mjs (`tsconfig.web-types.json`) checks web/index.ts, web/worker.ts and every
 * web/ file they import, writing each one's declaration to dist/web/ (29 of web/'s 38 files).
 * Checking those again cost typedoc 1.5 to 3 of its 21 to 24 CPU-seconds; this checks what is left:
 * docs/entries/ and the web/ files with no declaration in dist/web (the script worker, the shims,
 * the bundler aliases).
 * A type error found here is logged as typedoc logs its own, so the run fails the same way.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../../', import.meta.url)).replaceAll('\\', '/');

/** True when the build's `tsc` checked the file: src/, or a web/ file whose declaration it wrote. */
function checkedByBuild(fileName) {
  if (fileName.startsWith(`${root}src/`)) return true;
  const web = /^web\/(.+)\.ts$/.exec(fileName.slice(root.length));
  return web !== null && existsSync(`${root}dist/web/${web[1]}.d.ts`);
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on('begin', (context) => {
    for (const program of context.programs) {
      const unbuilt = program
        .getSourceFiles()
        .filter((f) => !f.isDeclarationFile && !f.fileName.includes('/node_modules/') && !checkedByBuild(f.fileName));
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
