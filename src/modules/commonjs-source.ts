/**
 * Reading CommonJS source without running it: whether a file is CommonJS, which modules it
 * `require`s, and the `process.env.NODE_ENV` branches a bundler would drop.
 */

/** ES module syntax at the start of a statement: `import x from`, `import {`, `export ...`, or `import.meta`. */
const ESM_SYNTAX =
  /(?:^|[;}\n])\s*(?:import(?:\s+[\w$]+\s*(?:,|from\b)|\s*[{*'"])|export(?:\s*[{*]|\s+(?:default|const|let|var|function|class|async)\b))|\bimport\.meta\b/;

/**
 * Whether a file loads as CommonJS, as Node and bundlers decide: `.cjs` always, `.mjs` never, and
 * a `.js` file when its package is not `"type": "module"` and it holds no import or export syntax.
 */
export function isCommonJs(path: string, source: string, packageType: 'module' | 'commonjs'): boolean {
  if (path.endsWith('.cjs')) return true;
  if (!/\.js$/.test(path)) return false;
  if (packageType === 'module') return false;
  return !ESM_SYNTAX.test(stripComments(source));
}

/**
 * Comments and string literals match first, so a `require('x')` inside them is skipped; only
 * calls of a free `require` with one string literal count.
 */
const SCAN =
  /\/\*[\s\S]*?\*\/|\/\/[^\n]*|(?<![.\w$])require\s*\(\s*(?:'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`([^`$\\]*)`)\s*\)|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g;

/** The literal specifiers a CommonJS module passes to `require`, each once, in order of first use. */
export function requireSpecifiers(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(SCAN)) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec !== undefined && spec !== '') found.add(spec);
  }
  return [...found];
}

const STATIC_IMPORT = /(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?(["'])([^"'\n]+)\1/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

/** The literal specifiers of a module's static imports, re-exports and dynamic imports. */
export function importSpecifiers(source: string): string[] {
  const text = stripComments(source);
  const found = new Set<string>();
  for (const re of [STATIC_IMPORT, DYNAMIC_IMPORT]) for (const match of text.matchAll(re)) found.add(match[2]!);
  return [...found];
}

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"\\])\/\/[^\n]*/g, '$1');
}

/** Files up to this size get their dead `NODE_ENV` branches dropped (entry files are a few hundred bytes). */
const PRUNE_LIMIT = 64 * 1024;

/**
 * Put the environment's `NODE_ENV` in for `process.env.NODE_ENV` (as bundlers define it), and in
 * small files empty the branches of `if ("a" === "b") {...} else {...}` that can never run, so
 * a package's entry (`react/index.js`) requires only the build the environment uses.
 */
export function withNodeEnv(source: string, nodeEnv: string): string {
  const replaced = source.replace(/\bprocess\.env\.NODE_ENV\b/g, JSON.stringify(nodeEnv));
  return replaced.length <= PRUNE_LIMIT ? pruneConstantBranches(replaced) : replaced;
}

const CONSTANT_IF = /\bif\s*\(\s*(["'])([^"'\n]*)\1\s*(===|!==|==|!=)\s*(["'])([^"'\n]*)\4\s*\)\s*\{/g;

function pruneConstantBranches(source: string): string {
  let out = source;
  let from = 0;
  for (let guard = 0; guard < 100; guard++) {
    CONSTANT_IF.lastIndex = from;
    const match = CONSTANT_IF.exec(out);
    if (!match) return out;
    from = match.index + match[0].length;
    const equal = match[2] === match[5];
    const holds = match[3]!.startsWith('=') ? equal : !equal;
    const thenOpen = match.index + match[0].length - 1;
    const thenClose = matchingBrace(out, thenOpen);
    if (thenClose < 0) continue;
    const after = out.slice(thenClose + 1);
    const rest = /^\s*else\s*\{/.exec(after);
    // An `else if` chain is left as written.
    if (!rest && /^\s*else\b/.test(after)) continue;
    const elseOpen = rest ? thenClose + rest[0].length : -1;
    const elseClose = rest ? matchingBrace(out, elseOpen) : -1;
    if (rest && elseClose < 0) continue;
    const thenBody = out.slice(thenOpen + 1, thenClose);
    const elseBody = rest ? out.slice(elseOpen + 1, elseClose) : '';
    const kept = holds ? thenBody : elseBody;
    // Blank lines keep the file's line numbers for stack traces.
    const dropped = (holds ? elseBody : thenBody).replace(/[^\n]/g, '');
    out = `${out.slice(0, match.index)}{${kept}${dropped}}${out.slice((rest ? elseClose : thenClose) + 1)}`;
    from = match.index;
  }
  return out;
}

/** The index of the `}` closing the `{` at `open`, skipping strings and comments; -1 when it is not found. */
function matchingBrace(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '/' && source[i + 1] === '/') i = source.indexOf('\n', i) < 0 ? source.length : source.indexOf('\n', i);
    else if (ch === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return -1;
      i = end + 1;
    } else if (ch === '"' || ch === "'" || ch === '`') {
      for (i++; i < source.length && source[i] !== ch; i++) if (source[i] === '\\') i++;
    } else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return i;
  }
  return -1;
}
