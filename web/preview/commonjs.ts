import { isCommonJs, requireSpecifiers, withNodeEnv } from '../../src/modules/commonjs-source.js';
import { isBareSpecifier } from '../../src/modules/paths.js';
import { BROWSER_REQUIRE, packageTypeOf, resolveModule, type ModuleFiles } from '../../src/modules/resolve.js';
import { cjsNamedExports } from './cjs-exports.js';
import { NODE_ENV } from './cjs-runtime.js';

/** The URL of the shared CommonJS registry module. */
export const RUNTIME_URL = '/@sandpit/cjs.js';

/** How a module file is loaded in the preview. */
export type ModuleKind = 'esm' | 'cjs' | 'json' | 'css' | 'asset';

/** What the CommonJS wrapper needs from the file server. */
export interface ModuleHost {
  files: ModuleFiles;
  /** the URL (below the session) a workspace file is served at, with an optional variant */
  urlOf(rel: string, variant?: 'define' | 'css' | 'json'): string;
  /** how a file loads (`moduleKindOf`, which the host may keep for a page load) */
  kindOf(rel: string, source: string | null): Promise<ModuleKind>;
  /** a bare specifier whose package is not installed, required by `importer` */
  onMissing(spec: string, importer: string, packageName: string): void;
}

/** Whether the file at `rel` is an ES module, CommonJS, JSON, a stylesheet or some other asset. */
export async function moduleKindOf(files: ModuleFiles, rel: string, source: string | null): Promise<ModuleKind> {
  if (rel.endsWith('.json')) return 'json';
  if (rel.endsWith('.css')) return 'css';
  if (!/\.(?:c|m)?js$/.test(rel)) return /\.(?:jsx|tsx?|mts)$/.test(rel) ? 'esm' : 'asset';
  if (rel.endsWith('.mjs')) return 'esm';
  const text = source ?? (await files.readText(rel)) ?? '';
  return isCommonJs(rel, text, rel.endsWith('.cjs') ? 'commonjs' : await packageTypeOf(files, rel)) ? 'cjs' : 'esm';
}

const js = JSON.stringify;
const stylesheetCode = (url: string) =>
  `const link = document.createElement('link'); link.rel = 'stylesheet'; link.href = new URL(${js(url)}, import.meta.url).href; document.head.append(link);`;

/** A generated module's text and the URLs it makes the browser fetch before it runs. */
export interface GeneratedModule {
  code: string;
  imports: string[];
}

/**
 * The module that registers a CommonJS file (or a JSON file, stylesheet or asset a CommonJS
 * module requires) with the registry without running it. It imports, ahead, the define module
 * of every CommonJS file it requires and the namespace of every ES module, so by the time any
 * factory runs, everything a synchronous `require` can reach is there.
 */
export async function defineModule(rel: string, source: string, host: ModuleHost): Promise<GeneratedModule> {
  const id = host.urlOf(rel);
  const head = `import { define, esm } from ${js(RUNTIME_URL)};\n`;
  const kind = await host.kindOf(rel, source);
  if (kind === 'json')
    return {
      code: `${head}define(${js(id)}, {}, function (module) { module.exports = ${source.trim() || 'null'}; });\n`,
      imports: [RUNTIME_URL],
    };
  if (kind === 'css')
    return {
      code: `${head}${stylesheetCode(host.urlOf(rel))}\ndefine(${js(id)}, {}, function () {});\n`,
      imports: [RUNTIME_URL, host.urlOf(rel)],
    };
  if (kind === 'asset')
    return {
      code: `${head}define(${js(id)}, {}, function (module) { module.exports = new URL(${js(host.urlOf(rel))}, import.meta.url).href; });\n`,
      imports: [RUNTIME_URL],
    };
  const code = withNodeEnv(source.replace(/^#!.*/, ''), NODE_ENV);
  const imports: string[] = [];
  const urls = [RUNTIME_URL];
  const deps: Record<string, unknown> = {};
  let n = 0;
  for (const spec of requireSpecifiers(code)) {
    const found = await resolveModule(host.files, spec, rel, BROWSER_REQUIRE);
    if (found.kind === 'builtin') deps[spec] = { builtin: found.name };
    else if (found.kind === 'empty') deps[spec] = { empty: true };
    else if (found.kind === 'missing') {
      if (found.package && isBareSpecifier(spec)) {
        deps[spec] = { missing: found.package };
        host.onMissing(spec, rel, found.package);
      } else deps[spec] = { absent: found.reason };
    } else {
      deps[spec] = host.urlOf(found.path);
      if ((await host.kindOf(found.path, null)) === 'esm') {
        const url = host.urlOf(found.path);
        imports.push(`import * as __ns${n} from ${js(url)}; esm(${js(url)}, __ns${n});`);
        urls.push(url);
        n++;
      } else {
        imports.push(`import ${js(host.urlOf(found.path, 'define'))};`);
        urls.push(host.urlOf(found.path, 'define'));
      }
    }
  }
  // The factory opens on the first line of the source, so its line numbers stay the file's own.
  return {
    code: `${head}${imports.join('\n')}\ndefine(${js(id)}, ${js(deps)}, function (module, exports, require, process, global, __filename, __dirname) {${code}\n});\n`,
    imports: [...new Set(urls)],
  };
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * The ES module an `import` of a CommonJS file gets: it loads the file's define module, runs it,
 * and exports `module.exports` as the default (its `default` when the module says `__esModule`,
 * as bundlers do) and, by name, `wanted` (what the importer takes) or else every export a bundler
 * would detect in the source.
 */
export async function facadeModule(
  rel: string,
  source: string,
  host: ModuleHost,
  wanted?: string[],
): Promise<GeneratedModule> {
  const id = host.urlOf(rel);
  const names = wanted ?? (await cjsNamedExports(host.files, rel, withNodeEnv(source, NODE_ENV)));
  const lines = [
    `import { load } from ${js(RUNTIME_URL)};`,
    `import ${js(host.urlOf(rel, 'define'))};`,
    `const __m = load(${js(id)});`,
    'export default __m && __m.__esModule && "default" in __m ? __m.default : __m;',
  ];
  let n = 0;
  for (const name of names) {
    if (name === 'default' || name === '__esModule' || !IDENTIFIER.test(name)) continue;
    lines.push(`const __e${n} = __m == null ? undefined : __m[${js(name)}]; export { __e${n} as ${name} };`);
    n++;
  }
  return { code: `${lines.join('\n')}\n`, imports: [RUNTIME_URL, host.urlOf(rel, 'define')] };
}

/** The ES module an `import` of a stylesheet gets: the sheet is linked, and the import waits for it. */
export function stylesheetModule(url: string): string {
  return `${stylesheetCode(url)}\nawait new Promise((resolve) => { link.onload = link.onerror = resolve; });\nexport default link.href;\n`;
}

/** The ES module an `import` of a JSON file gets, as bundlers serve it. */
export function jsonModule(source: string): string {
  return `export default ${source.trim() || 'null'};\n`;
}
