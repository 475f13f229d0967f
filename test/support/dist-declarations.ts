import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));

/**
 * A module resolution that lands on a source file of src, turned to the declarations the build
 * wrote for it in dist/, as a user's program reads the package: the same names, kinds and types
 * without the code they were inferred from, which a program would otherwise parse and infer again.
 * Only for a current build (`distIsCurrent`); any other resolution is given back as it is.
 */
export function fromDeclarations(
  found: ts.ResolvedModuleWithFailedLookupLocations,
): ts.ResolvedModuleWithFailedLookupLocations {
  const path = found.resolvedModule?.resolvedFileName;
  if (!path?.startsWith(src) || !path.endsWith('.ts') || path.endsWith('.d.ts')) return found;
  const declarations = `${dist}${path.slice(src.length, -'.ts'.length)}.d.ts`;
  if (!ts.sys.fileExists(declarations)) throw new Error(`the build wrote no ${declarations}`);
  return {
    ...found,
    resolvedModule: { ...found.resolvedModule!, resolvedFileName: declarations, extension: ts.Extension.Dts },
  };
}

/**
 * A compiler host's module resolution, each answer passed through `map` (fromDeclarations, say);
 * a specifier `only` leaves out resolves to nothing.
 */
export function resolveModulesThrough(
  host: ts.CompilerHost,
  map: (found: ts.ResolvedModuleWithFailedLookupLocations) => ts.ResolvedModuleWithFailedLookupLocations,
  only: (specifier: string) => boolean = () => true,
): NonNullable<ts.CompilerHost['resolveModuleNameLiterals']> {
  return (literals, containingFile, redirected, compilerOptions, file) =>
    literals.map((literal) =>
      only(literal.text)
        ? map(
            ts.resolveModuleName(
              literal.text,
              containingFile,
              compilerOptions,
              host,
              undefined,
              redirected,
              ts.getModeForUsageLocation(file, literal, compilerOptions),
            ),
          )
        : { resolvedModule: undefined },
    );
}
