import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

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

/** The names each entry exports, with their kinds, as one Markdown page. */
function surface(): string {
  const program = ts.createProgram(
    ENTRIES.map(([, file]) => file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2023,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  const lines = [
    '# The public surface',
    '',
    'Every name each entry exports, checked by `test/structure/api-surface.test.ts`: a change here is a',
    'change to what users import. Regenerate with `UPDATE_API_SURFACE=1 npx vitest run test/structure/api-surface.test.ts`.',
  ];
  for (const [name, file] of ENTRIES) {
    const module = checker.getSymbolAtLocation(program.getSourceFile(file)!)!;
    const exports = checker.getExportsOfModule(module).map((s) => `- ${kindOf(s, checker)} \`${s.getName()}\``);
    lines.push('', `## ${name} (${exports.length})`, '', ...exports.sort());
  }
  return `${lines.join('\n')}\n`;
}

describe('the public surface', () => {
  it('is the checked-in report: exports change only on purpose', () => {
    const now = surface();
    if (process.env.UPDATE_API_SURFACE) writeFileSync(REPORT, now);
    expect(now.split('\n')).toEqual(readFileSync(REPORT, 'utf8').split('\n'));
  });
});
