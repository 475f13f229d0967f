import { transform, type Options } from 'sucrase';
import { extensionOf } from './content-types.js';

/** How JSX turns into calls, as the workspace's tsconfig.json says (classic React.createElement by default). */
export interface JsxSettings {
  runtime: 'classic' | 'automatic';
  pragma?: string;
  fragmentPragma?: string;
  importSource?: string;
}

/** A source turned into JavaScript, or the first syntax error in it, at the workspace's line and column. */
export type TranspileResult = { ok: true; code: string } | { ok: false; message: string; line: number; column: number };

function base64Utf8(text: string): string {
  // Most source maps are ASCII, whose UTF-8 bytes are its characters: btoa takes them as they are.
  if (/^[\x00-\x7f]*$/.test(text)) return btoa(text);
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * A source map's mappings from each line of `code` to the same line of its source, column 0.
 * Sucrase keeps every line where it was, so this is the map it made itself before its maps went
 * token by token; computing those took about a third of a transpile, on a first preview's path.
 */
function lineMappings(code: string): string {
  let lines = 1;
  for (let at = code.indexOf('\n'); at !== -1; at = code.indexOf('\n', at + 1)) lines++;
  return `AAAA${';AACA'.repeat(lines - 1)}`;
}

/**
 * TypeScript, TSX and JSX to JavaScript with sucrase (plain JavaScript, no WebAssembly). ES module
 * syntax is kept, so the browser loads the result as a module; the inline source map carries the
 * original text, so a stack trace and the browser's tools point at the workspace's own lines.
 */
export function transpile(path: string, source: string, jsx: JsxSettings = { runtime: 'classic' }): TranspileResult {
  const ext = extensionOf(path);
  const transforms: Options['transforms'] =
    ext === 'jsx' ? ['jsx'] : ext === 'tsx' ? ['typescript', 'jsx'] : ['typescript'];
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    const result = transform(source, {
      transforms,
      filePath: path,
      disableESTransforms: true,
      production: true,
      jsxRuntime: jsx.runtime,
      ...(jsx.pragma ? { jsxPragma: jsx.pragma } : {}),
      ...(jsx.fragmentPragma ? { jsxFragmentPragma: jsx.fragmentPragma } : {}),
      ...(jsx.importSource ? { jsxImportSource: jsx.importSource } : {}),
    });
    const map = {
      version: 3,
      file: name,
      sources: [name],
      sourcesContent: [source],
      names: [],
      mappings: lineMappings(result.code),
    };
    return {
      ok: true,
      code: `${result.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${base64Utf8(JSON.stringify(map))}\n`,
    };
  } catch (error) {
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    const message = String((error as Error).message ?? error)
      .replace(/^Error transforming [^:]*: /, '')
      .replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, message, line: loc?.line ?? 1, column: loc?.column ?? 1 };
  }
}

/** Whether a package.json's text names React among its dependencies. */
function dependsOnReact(packageJson: string | null | undefined): boolean {
  try {
    const pkg = JSON.parse(packageJson ?? '') as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies', 'peerDependencies'].some((field) => Boolean(pkg[field]?.react));
  } catch {
    return false;
  }
}

/**
 * Read JSX settings from a tsconfig.json's text. When it names no `jsx` mode, a project whose
 * package.json depends on React gets the automatic runtime (`react/jsx-runtime`), as Vite's React
 * setup gives it; anything else, and anything unreadable, keeps the classic default.
 */
export function jsxSettingsFrom(tsconfig: string | null, packageJson?: string | null): JsxSettings {
  const fallback: JsxSettings = { runtime: dependsOnReact(packageJson) ? 'automatic' : 'classic' };
  if (!tsconfig) return fallback;
  try {
    // tsconfig allows comments and trailing commas; strip the common forms before parsing.
    const json = tsconfig
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/(^|[^:"])\/\/.*$/gm, '$1')
      .replace(/,(\s*[}\]])/g, '$1');
    const options = (JSON.parse(json) as { compilerOptions?: Record<string, unknown> }).compilerOptions ?? {};
    const text = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
    if (!text('jsx') && !text('jsxFactory'))
      return { ...fallback, ...(text('jsxImportSource') ? { importSource: text('jsxImportSource') } : {}) };
    const automatic = text('jsx') === 'react-jsx' || text('jsx') === 'react-jsxdev';
    return {
      runtime: automatic ? 'automatic' : 'classic',
      ...(text('jsxFactory') ? { pragma: text('jsxFactory') } : {}),
      ...(text('jsxFragmentFactory') ? { fragmentPragma: text('jsxFragmentFactory') } : {}),
      ...(text('jsxImportSource') ? { importSource: text('jsxImportSource') } : {}),
    };
  } catch {
    return fallback;
  }
}
