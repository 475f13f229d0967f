import { withNodeEnv } from '../../src/modules/commonjs-source.js';
import { isBareSpecifier, splitPackage } from '../../src/modules/paths.js';
import { BROWSER_IMPORT, resolveModule, type ModuleFiles } from '../../src/modules/resolve.js';
import { NODE_ENV } from './cjs-runtime.js';
import { needsTranspile } from './content-types.js';
import type { ModuleKind } from './commonjs.js';
import { rewriteImports } from './imports.js';
import type { JsxSettings } from './transform.js';
import { transpileKept } from './transpiled.js';

/** The CommonJS wrapper (and through it the lexer) loads on the first package module a preview asks for. */
const commonjs = () => import('./commonjs.js');

/** How a module URL asks for a file: as written, or as one of the wrappers the server writes. */
export type ModuleVariant = 'define' | 'css' | 'json' | undefined;

/** URL folders the server answers itself: `@fs/` is the workspace root (for node_modules above the previewed folder). */
export const FS_PREFIX = '@fs/';
export const MISSING_PREFIX = '@missing/';
export const SANDPIT_PREFIX = '@sandpit/';

/** A script file inside node_modules: the files that may be CommonJS. */
const PACKAGE_SCRIPT = /(?:^|\/)node_modules\/.*\.c?js$/;

/** A module's text and the URLs it makes the browser fetch before it runs (to serve ahead), or the problem that stops it. */
export type ModuleAnswer =
  | { ok: true; code: string; imports: string[] }
  | { ok: false; status: number; message: string };

export interface ModuleServerOptions {
  files: ModuleFiles;
  /** the import map keys of the page served last: those specifiers are the browser's to resolve */
  mapped(): string[];
  jsxSettings(): Promise<JsxSettings>;
  onProblem(message: string): void;
}

/** The URL (below the session) a workspace file is served at: `/@fs/<path>`, with its variant as a query. */
export function fsUrl(rel: string, variant?: ModuleVariant): string {
  const path = `/${FS_PREFIX}${rel
    .split('/')
    .map((part) => encodeURIComponent(part).replace(/%40/g, '@'))
    .join('/')}`;
  return variant ? `${path}?sandpit=${variant}` : path;
}

const variantOfPath = (path: string): ModuleVariant =>
  path.endsWith('.css') ? 'css' : path.endsWith('.json') ? 'json' : undefined;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The URL of a CommonJS package file's ES facade that exports just `names` (and its default):
 * the importer said what it takes, so the file need not be lexed for its exports. Each facade is
 * a view of the one module the shared registry runs, so two importers asking for different names
 * still share its `module.exports`. Null when the names are not plain identifiers or include `*`.
 */
function facadeUrl(rel: string, names: string[]): string | null {
  const wanted = [...new Set(names.filter((name) => name !== 'default'))].sort();
  if (wanted.some((name) => !IDENTIFIER.test(name))) return null;
  return `${fsUrl(rel)}?names=${wanted.join(',')}`;
}

/**
 * Turns workspace files into modules the browser runs: TypeScript and JSX transpiled, imports
 * resolved (bare ones through node_modules with the browser's `exports` conditions, stylesheets
 * and JSON wrapped), and CommonJS files under node_modules wrapped for the shared registry.
 */
export function createModuleServer(options: ModuleServerOptions) {
  const missingFor = new Map<string, string>();

  /** The URL of the module standing in for a missing one: it names what the importer takes, so the page links and shows why. */
  const missingUrl = (spec: string, all: string[]) => {
    const names = all.filter((name) => name !== '*');
    return `/${MISSING_PREFIX}${encodeURIComponent(spec)}${names.length ? `?names=${names.map(encodeURIComponent).join(',')}` : ''}`;
  };

  function missing(spec: string, importer: string, name: string, names: string[] = []): string {
    const message = `${importer} imports '${spec}', but the package '${name}' is not installed: run npm install (or map it in the page's import map).`;
    options.onProblem(message);
    missingFor.set(spec, message);
    return missingUrl(spec, names);
  }

  async function resolveImport(spec: string, importer: string, names: string[]): Promise<string | null> {
    if (!isBareSpecifier(spec)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(spec)) return null;
      const variant = variantOfPath(spec.replace(/[?#].*$/, ''));
      return variant && !spec.includes('?') ? `${spec}?sandpit=${variant}` : null;
    }
    if (options.mapped().some((key) => key === spec || (key.endsWith('/') && spec.startsWith(key)))) return null;
    const found = await resolveModule(options.files, spec, importer, BROWSER_IMPORT);
    if (found.kind === 'file') {
      const variant = variantOfPath(found.path);
      if (!variant && PACKAGE_SCRIPT.test(found.path) && (await kindOf(found.path, null)) === 'cjs')
        return facadeUrl(found.path, names) ?? fsUrl(found.path);
      return fsUrl(found.path, variant);
    }
    if (found.kind === 'empty') return `/${SANDPIT_PREFIX}empty.js`;
    if (found.kind === 'builtin') {
      const message = `${importer} imports Node's built-in '${found.name}', which the preview (a browser) does not have.`;
      options.onProblem(message);
      missingFor.set(spec, message);
      return missingUrl(spec, names);
    }
    if (found.package) return missing(spec, importer, found.package, names);
    const message = `${importer} imports '${spec}': ${found.reason}.`;
    options.onProblem(message);
    missingFor.set(spec, message);
    return missingUrl(spec, names);
  }

  /**
   * How each file loads, found once per page load (a page being served starts a new one): the
   * wrappers ask it of a large package file several times, and each answer reads its whole text.
   */
  let kinds = new Map<string, Promise<ModuleKind>>();
  function kindOf(rel: string, source: string | null): Promise<ModuleKind> {
    let kind = kinds.get(rel);
    if (!kind) {
      kind = commonjs().then((cjs) => cjs.moduleKindOf(options.files, rel, source));
      kinds.set(rel, kind);
    }
    return kind;
  }

  const host = {
    files: options.files,
    urlOf: fsUrl,
    kindOf,
    onMissing: (spec: string, importer: string, name: string) => void missing(spec, importer, name),
  };

  /** The module for a file's text, as `variant` asks; `names`, for a CommonJS file, are the exports its importer takes. */
  async function serveModule(
    rel: string,
    source: string,
    variant: ModuleVariant,
    names?: string[],
  ): Promise<ModuleAnswer> {
    if (variant === 'css')
      return { ok: true, code: (await commonjs()).stylesheetModule(fsUrl(rel)), imports: [fsUrl(rel)] };
    if (variant === 'json') return { ok: true, code: (await commonjs()).jsonModule(source), imports: [] };
    const inPackage = /(?:^|\/)node_modules\//.test(rel);
    if (variant === 'define') return { ok: true, ...(await (await commonjs()).defineModule(rel, source, host)) };
    if (inPackage && /\.c?js$/.test(rel) && (await kindOf(rel, source)) === 'cjs')
      return { ok: true, ...(await (await commonjs()).facadeModule(rel, source, host, names)) };
    let code = inPackage ? withNodeEnv(source, NODE_ENV) : source;
    if (needsTranspile(rel)) {
      const result = await transpileKept(rel, code, await options.jsxSettings());
      if (!result.ok) {
        const message = `Syntax error in ${rel}:${result.line}:${result.column}: ${result.message}`;
        options.onProblem(message);
        return { ok: false, status: 500, message };
      }
      code = result.code;
    }
    return { ok: true, ...(await rewriteImports(code, (spec, names) => resolveImport(spec, rel, names))) };
  }

  /** The module a missing import gets: it shows why in the page, then fails the import as the browser would. */
  function missingModule(spec: string, names: string[] = []): string {
    const message =
      missingFor.get(spec) ??
      `Nothing provides the module '${spec}'${isBareSpecifier(spec) ? `: run npm install to add the package '${splitPackage(spec).name}'` : ''}.`;
    return [
      `const message = ${JSON.stringify(message)};`,
      "const note = document.createElement('pre');",
      "note.dataset.sandpitMissing = '';",
      "note.style.cssText = 'position:fixed;inset:auto 1rem 1rem 1rem;margin:0;padding:1rem;background:#fff4f4;color:#8a1010;border:1px solid #e0a0a0;font:14px/1.4 system-ui;white-space:pre-wrap;z-index:2147483647';",
      'note.textContent = message;',
      '(document.body ?? document.documentElement).append(note);',
      'throw new Error(message);',
      ...names
        .filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))
        .map((name) => (name === 'default' ? 'export default undefined;' : `export let ${name};`)),
      '',
    ].join('\n');
  }

  /**
   * A file was just written with `source`: transpile it now, as a load would serve it, so the
   * reload the change causes finds it done. Package files and sources that need no transpiling
   * are left to the load.
   */
  async function prepare(rel: string, source: string): Promise<void> {
    if (!needsTranspile(rel) || /(?:^|\/)node_modules\//.test(rel)) return;
    await transpileKept(rel, source, await options.jsxSettings());
  }

  /** A page is being served: what earlier loads learnt about files may no longer hold. */
  function newLoad(): void {
    kinds = new Map();
  }

  return { serveModule, missingModule, newLoad, prepare };
}
