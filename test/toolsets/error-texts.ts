import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** A text the source can put before a model: an error's message or hint, a problem's message. */
export interface ErrorText {
  /** project path and line of the expression it came from */
  where: string;
  /** the text, with every part only known at run time as {@link UNKNOWN} */
  text: string;
}

/** What a part computed at run time (a path, a count) becomes in a swept text. */
export const UNKNOWN = '\u2026';
/** The variants one expression may take before the sweep stops spelling them out. */
const MAX_VARIANTS = 64;

/** Each file's runtime imports by its path and text: the seeds' sweeps share most of their files. */
const importsOf = new Map<string, string[]>();

/** The project files `roots` load through their relative imports (static and dynamic; type-only ones load nothing). */
export function reachedFrom(roots: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue; // a folder import or a generated file: nothing of ours to read
    }
    const key = `${file}\0${source}`;
    let specs = importsOf.get(key);
    if (!specs) {
      specs = runtimeImports(ts.createSourceFile(file, source, ts.ScriptTarget.ES2023));
      importsOf.set(key, specs);
    }
    for (const spec of specs) {
      if (spec.startsWith('.')) queue.push(normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts'));
    }
  }
  return [...seen].sort();
}

/** Let go of what {@link reachedFrom} keeps between calls. */
export function forgetReached(): void {
  importsOf.clear();
}

/** The modules a file loads when it runs: type-only imports and re-exports carry no code, so no texts. */
function runtimeImports(file: ts.SourceFile): string[] {
  const found: string[] = [];
  visit(file, (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
  });
  return found;
}

/**
 * The program {@link errorTexts} reads `files` with. Only names are resolved, never types: no lib
 * files, so a program over a toolset is quick. One program over several toolsets' files serves
 * each of them: a file's names resolve to the same declarations in it (only runtime imports carry
 * texts, and the files they reach are in both), and the texts are read from the given files alone.
 */
export function sweepProgram(files: string[]): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2023,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    noEmit: true,
    noLib: true,
    noResolve: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  // the sweep reads code, never a comment
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseNone;
  return ts.createProgram(files, options, host);
}

/**
 * Every error text `files` hold: the message and hint of each `new ToolError(code, message, { hint })`,
 * every `hint:` and each problem's `message:` (an object with `path` beside it), followed through
 * the ways hints are built here: constants (also imported ones), `a ?? b`, `c ? a : b`, `+`,
 * template literals, lookup tables (`HINTS[verdict]`), and a helper's parameter (`outside(input,
 * why, hint)`), which takes the texts its callers pass.
 */
export function errorTexts(files: string[], program: ts.Program = sweepProgram(files)): Map<string, ErrorText[]> {
  const checker = program.getTypeChecker();
  const ours = files.map((f) => program.getSourceFile(f)!);
  const calls = new Map<ts.Symbol, ts.CallExpression[]>();
  for (const file of ours) {
    visit(file, (node) => {
      if (!ts.isCallExpression(node) && !ts.isNewExpression(node)) return;
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.name : node.expression;
      const symbol = symbolOf(callee);
      if (symbol) calls.set(symbol, [...(calls.get(symbol) ?? []), node as ts.CallExpression]);
    });
  }

  function symbolOf(node: ts.Node): ts.Symbol | undefined {
    const symbol = checker.getSymbolAtLocation(node);
    return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  }

  function product(parts: string[][]): string[] {
    let out = [''];
    for (const part of parts) out = out.flatMap((a) => part.map((b) => a + b)).slice(0, MAX_VARIANTS);
    return out;
  }

  /** The texts an expression may evaluate to; `depth` stops cycles through helpers. */
  function values(node: ts.Expression, depth = 0): string[] {
    if (depth > 8) return [UNKNOWN];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isSatisfiesExpression(node)
    )
      return values(node.expression, depth);
    if (ts.isTemplateExpression(node)) {
      return product([
        [node.head.text],
        ...node.templateSpans.flatMap((span) => [values(span.expression, depth + 1), [span.literal.text]]),
      ]);
    }
    if (ts.isConditionalExpression(node))
      return [...values(node.whenTrue, depth + 1), ...values(node.whenFalse, depth + 1)];
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if (op === ts.SyntaxKind.PlusToken) return product([values(node.left, depth + 1), values(node.right, depth + 1)]);
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken)
        return [...values(node.left, depth + 1), ...values(node.right, depth + 1)];
      return [UNKNOWN];
    }
    if (ts.isElementAccessExpression(node) || ts.isPropertyAccessExpression(node)) {
      const table = ts.isElementAccessExpression(node) ? node.expression : node;
      const init = initializerOf(table);
      if (init && ts.isObjectLiteralExpression(init)) {
        return init.properties.flatMap((p) => (ts.isPropertyAssignment(p) ? values(p.initializer, depth + 1) : []));
      }
      return init ? values(init, depth + 1) : [UNKNOWN];
    }
    if (ts.isIdentifier(node)) {
      const declaration = symbolOf(node)?.valueDeclaration;
      if (declaration && ts.isParameter(declaration)) return argumentsFor(declaration, depth + 1);
      const init = initializerOf(node);
      return init ? values(init, depth + 1) : [UNKNOWN];
    }
    return [UNKNOWN];
  }

  function initializerOf(node: ts.Node): ts.Expression | undefined {
    const declaration = symbolOf(node)?.valueDeclaration;
    if (
      declaration &&
      (ts.isVariableDeclaration(declaration) || ts.isPropertyAssignment(declaration)) &&
      declaration.initializer
    )
      return declaration.initializer;
    return undefined;
  }

  /** What callers pass for a helper's parameter (the helper's own default included). */
  function argumentsFor(parameter: ts.ParameterDeclaration, depth: number): string[] {
    const fn = parameter.parent;
    const index = fn.parameters.indexOf(parameter);
    const name =
      ts.isFunctionDeclaration(fn) || ts.isMethodDeclaration(fn)
        ? fn.name
        : ts.isVariableDeclaration(fn.parent)
          ? fn.parent.name
          : undefined;
    const symbol = name && symbolOf(name);
    const found = parameter.initializer ? values(parameter.initializer, depth) : [];
    for (const call of (symbol && calls.get(symbol)) ?? []) {
      const arg = call.arguments?.[index];
      if (arg) found.push(...values(arg, depth));
    }
    return found.length ? found : [UNKNOWN];
  }

  const texts = new Map<string, ErrorText[]>();
  for (const file of ours) {
    const path = relative(process.cwd(), file.fileName);
    const found: ErrorText[] = [];
    const add = (node: ts.Expression) => {
      const where = `${path}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      for (const text of new Set(values(node))) if (text.replaceAll(UNKNOWN, '').trim()) found.push({ where, text });
    };
    visit(file, (node) => {
      if (
        ts.isNewExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'ToolError' &&
        node.arguments?.[1]
      )
        add(node.arguments[1]);
      if (ts.isObjectLiteralExpression(node)) {
        const names = node.properties.map((p) => (p.name && ts.isIdentifier(p.name) ? p.name.text : ''));
        for (const p of node.properties) {
          const key = p.name && ts.isIdentifier(p.name) ? p.name.text : '';
          const isHint = key === 'hint';
          const isProblem = key === 'message' && names.includes('path');
          if (!isHint && !isProblem) continue;
          if (ts.isPropertyAssignment(p)) add(p.initializer);
          else if (ts.isShorthandPropertyAssignment(p)) add(p.name);
        }
      }
    });
    texts.set(path, found);
  }
  return texts;
}

function visit(node: ts.Node, see: (node: ts.Node) => void): void {
  see(node);
  ts.forEachChild(node, (child) => visit(child, see));
}
