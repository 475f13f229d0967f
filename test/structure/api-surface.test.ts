import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { distIsCurrent } from '../cli/build-dist.js';
import { fromDeclarations, resolveModulesThrough } from '../support/dist-declarations.js';

// Each entry the package exports, as typedoc reads it (docs/entries re-export what a user imports).
const ENTRIES: Array<[string, string]> = [
  ['sandpit-workspace', 'docs/entries/sandpit-workspace.ts'],
  ['sandpit-workspace/node', 'docs/entries/sandpit-workspace-node.ts'],
  ['sandpit-workspace/web', 'docs/entries/sandpit-workspace-web.ts'],
  ['sandpit-workspace/web/worker', 'docs/entries/sandpit-workspace-web-worker.ts'],
  ['sandpit-workspace/conformance', 'docs/entries/sandpit-workspace-conformance.ts'],
  ['sandpit-workspace/conformance/patch-scenarios', 'docs/entries/sandpit-workspace-conformance-patch-scenarios.ts'],
  ['sandpit-workspace/conformance/example', 'docs/entries/sandpit-workspace-conformance-example.ts'],
  ['sandpit-workspace/ai-sdk', 'docs/entries/sandpit-workspace-ai-sdk.ts'],
  ['sandpit-workspace/openai-agents', 'docs/entries/sandpit-workspace-openai-agents.ts'],
];
const REPORT = 'docs/api-surface.md';

function kindOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const f = target.flags;
  if (f & ts.SymbolFlags.Class) return 'class';
  if (f & ts.SymbolFlags.Function) return 'function';
  if (f & ts.SymbolFlags.Interface) return 'interface';
  if (f & ts.SymbolFlags.TypeAlias) return 'type';
  if (f & ts.SymbolFlags.Enum) return 'enum';
  if (f & ts.SymbolFlags.Variable) return 'const';
  return 'other';
}

const OPTIONS: ts.CompilerOptions = {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2023,
  skipLibCheck: true,
  noEmit: true,
};

/** The program of the repository's own files, made once for both tests (they only read it). */
let ownFiles: ts.Program | undefined;
// a worker runs other files after this one, and should not carry the program into them
afterAll(() => {
  ownFiles = undefined;
});

/**
 * A program of the repository's own files only: no default library, no @types, and no package
 * behind a bare import. The names a module exports and their kinds are decided by its own
 * declarations and the files it re-exports; parsing the packages' declarations (openai's alone are
 * 6 MB) and binding them was six sevenths of this test's CPU. `surface` checks that no export
 * leads into a package, and reads the full program when one does. With a current build, src is read
 * from the declarations it wrote (parsing src's code was three quarters of what was left).
 */
function ownFilesProgram(): ts.Program {
  if (ownFiles) return ownFiles;
  const options: ts.CompilerOptions = { ...OPTIONS, noLib: true, types: [] };
  const host = ts.createCompilerHost(options);
  // names and kinds come from the code; no JSDoc comment can change them
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseNone;
  // a current build's declarations name and kind every export as src does, without its code
  const read = distIsCurrent() ? fromDeclarations : (found: ts.ResolvedModuleWithFailedLookupLocations) => found;
  host.resolveModuleNameLiterals = resolveModulesThrough(host, read, (specifier) => /^\.\.?\//.test(specifier));
  ownFiles = ts.createProgram(
    ENTRIES.map(([, file]) => file),
    options,
    host,
  );
  return ownFiles;
}

/** The names each entry exports, with their kinds, as one Markdown page. */
function surface(): string {
  return (
    surfaceOf(ownFilesProgram(), true) ??
    surfaceOf(
      ts.createProgram(
        ENTRIES.map(([, file]) => file),
        OPTIONS,
      ),
      false,
    )!
  );
}

/**
 * The page, read from `program`. With `ownFilesOnly`, null when the answer could depend on a
 * package left out: a file re-exports from a bare specifier, or an export is an alias that does not
 * end at a declaration in the program's files (an import from a package, passed on).
 */
function surfaceOf(program: ts.Program, ownFilesOnly: boolean): string | null {
  if (ownFilesOnly) {
    for (const file of program.getSourceFiles())
      for (const statement of file.statements) {
        if (!ts.isExportDeclaration(statement) && !ts.isImportEqualsDeclaration(statement)) continue;
        const from = moduleSpecifierOf(statement);
        if (from !== undefined && !/^\.\.?\//.test(from)) return null;
      }
  }
  const checker = program.getTypeChecker();
  const lines = [
    '# The public surface',
    '',
    'Every name each entry exports, checked by `test/structure/api-surface.test.ts`: a change here is a',
    'change to what users import. Regenerate with `UPDATE_API_SURFACE=1 npx vitest run test/structure/api-surface.test.ts`.',
  ];
  for (const [name, file] of ENTRIES) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const symbols = checker.getExportsOfModule(module);
    if (ownFilesOnly && !symbols.every((s) => endsAtDeclaration(s, checker))) return null;
    const exports = symbols.map((s) => `- ${kindOf(s, checker)} \`${s.getName()}\``);
    lines.push('', `## ${name} (${exports.length})`, '', ...exports.sort());
  }
  return `${lines.join('\n')}\n`;
}

function moduleSpecifierOf(statement: ts.ExportDeclaration | ts.ImportEqualsDeclaration): string | undefined {
  if (ts.isExportDeclaration(statement))
    return statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)
      ? statement.moduleSpecifier.text
      : undefined;
  const ref = statement.moduleReference;
  return ts.isExternalModuleReference(ref) && ts.isStringLiteral(ref.expression) ? ref.expression.text : undefined;
}

/** The symbol, followed through its aliases, ends at a declaration (an import from a package left out does not). */
function endsAtDeclaration(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  return (target.declarations?.length ?? 0) > 0;
}

describe('the public surface', () => {
  it('is the checked-in report: exports change only on purpose', () => {
    const now = surface();
    if (process.env.UPDATE_API_SURFACE) writeFileSync(REPORT, now);
    expect(now.split('\n')).toEqual(readFileSync(REPORT, 'utf8').split('\n'));
  });

  // The node entry passes the root's names on and adds its own: a name of its own that the root
  // also uses (a Node TaskRegistry beside the portable one) would mean two things by entry.
  it('gives one name one meaning in every entry', () => {
    const program = ownFilesProgram();
    const checker = program.getTypeChecker();
    const meanings = new Map<string, Map<ts.Symbol, string[]>>();
    for (const [entry, file] of ENTRIES) {
      const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
      for (const symbol of checker.getExportsOfModule(module)) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const byTarget = meanings.get(symbol.getName()) ?? new Map<ts.Symbol, string[]>();
        byTarget.set(target, [...(byTarget.get(target) ?? []), entry]);
        meanings.set(symbol.getName(), byTarget);
      }
    }
    const twoMeanings = [...meanings]
      .filter(([, byTarget]) => byTarget.size > 1)
      .map(([name, byTarget]) => `${name}: ${[...byTarget.values()].map((entries) => entries.join(', ')).join(' / ')}`);
    expect(twoMeanings).toEqual([]);
  });
});
