import { withNodeEnv } from '../../src/modules/commonjs-source.js';
import { NODE_ENV } from './cjs-runtime.js';
import { BROWSER_REQUIRE, resolveModule, type ModuleFiles } from '../../src/modules/resolve.js';

type Parse = (source: string, name?: string) => { exports: string[]; reexports: string[] };

/**
 * cjs-module-lexer's pure-JavaScript lexer (every build maps the package to its `lexer.js`, never
 * its WebAssembly build), loaded on the first CommonJS module a preview imports.
 */
let lexer: Promise<Parse> | null = null;
function loadLexer(): Promise<Parse> {
  lexer ??= import('cjs-module-lexer').then((m) => {
    const mod = m as unknown as { parse?: Parse; default?: { parse: Parse } };
    return mod.parse ?? mod.default!.parse;
  });
  return lexer;
}

/**
 * Names found per file, keyed by its path and checked against its exact text: a reload reads
 * the file again (the server keeps no copy) but lexes a megabyte of react-dom only once.
 */
const lexed = new Map<string, { source: string; exports: string[]; reexports: string[] }>();
const MAX_CACHED = 200;

async function lex(rel: string, source: string): Promise<{ exports: string[]; reexports: string[] }> {
  const hit = lexed.get(rel);
  if (hit && hit.source === source) return hit;
  const parse = await loadLexer();
  let result: { exports: string[]; reexports: string[] };
  try {
    result = parse(source, rel);
  } catch {
    // The lexer gives up on some syntax; the module still loads, with its default export only.
    result = { exports: [], reexports: [] };
  }
  if (lexed.size >= MAX_CACHED) lexed.delete(lexed.keys().next().value!);
  lexed.set(rel, { source, exports: result.exports, reexports: result.reexports });
  return result;
}

/**
 * The named exports bundlers (and Node) detect in a CommonJS module: `exports.x = `,
 * `Object.defineProperty(exports, 'x', ...)`, object literals given to `module.exports`, and
 * those of a module it re-exports wholesale (`module.exports = require('./x')`), followed a few levels.
 */
export async function cjsNamedExports(files: ModuleFiles, rel: string, source: string, depth = 0): Promise<string[]> {
  const { exports, reexports } = await lex(rel, source);
  const names = new Set(exports);
  if (depth < 4)
    for (const spec of reexports) {
      const target = await resolveModule(files, spec, rel, BROWSER_REQUIRE);
      if (target.kind !== 'file' || !/\.c?js$/.test(target.path)) continue;
      const text = await files.readText(target.path);
      if (text === null) continue;
      for (const name of await cjsNamedExports(files, target.path, withNodeEnv(text, NODE_ENV), depth + 1))
        names.add(name);
    }
  return [...names];
}
