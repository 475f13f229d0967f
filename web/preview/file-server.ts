import type { ModuleFiles } from '../../src/modules/resolve.js';
import { cjsRuntimeModule, NODE_ENV } from './cjs-runtime.js';
import { contentTypeOf, isModuleSource } from './content-types.js';
import { createModuleServer, FS_PREFIX, MISSING_PREFIX, type ModuleVariant, SANDPIT_PREFIX } from './module-server.js';
import { pageHookTag } from './page-hook.js';
import type { PreviewEntry } from './read-file.js';
import type { JsxSettings } from './transform.js';

/** sucrase is loaded on the first module that needs it, so a playground that never previews never loads it. */
const transformer = () => import('./transform.js');

/** What the file server answers with; the Service Worker turns it into a Response. */
export interface ServedFile {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
  /** for a page: the URLs it links that every load fetches (stylesheets, scripts), as written */
  links?: string[];
  /** for a module: the URLs of its static imports, as its served text names them (fetched before it runs) */
  imports?: string[];
}

/** Something the previewed page asked for that cannot work, in a person's words. */
export interface PreviewProblem {
  message: string;
}

export interface FileServerOptions {
  /** reads a workspace file by its root-relative path */
  entry(rel: string): Promise<PreviewEntry>;
  /** what `entry` would find, without reading a file's bytes (module resolution probes many paths); `entry` when absent */
  kind?(rel: string): Promise<PreviewEntry['kind']>;
  /** the previewed folder, root-relative ('' is the workspace root) */
  root(): string;
  /** the playground's origin and the URL prefix of this session, for the injected page hook */
  playgroundOrigin: string;
  prefix: string;
  onProblem(problem: PreviewProblem): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const text = (
  status: number,
  body: string,
  type = 'text/plain; charset=utf-8',
  extra: Record<string, string> = {},
): ServedFile => ({
  status,
  headers: { 'content-type': type, 'cache-control': 'no-store', ...extra },
  body: encoder.encode(body),
});

const join = (...parts: string[]) => parts.filter(Boolean).join('/').replace(/\/+/g, '/');
const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot' }[c]};`);

/** The import map of a page, as the keys it maps (exact specifiers, and prefixes ending in `/`). */
export function importMapKeys(html: string): string[] {
  const keys: string[] = [];
  for (const match of html.matchAll(/<script\b[^>]*type\s*=\s*["']?importmap["']?[^>]*>([\s\S]*?)<\/script>/gi)) {
    try {
      const map = JSON.parse(match[1]!) as { imports?: Record<string, string> };
      keys.push(...Object.keys(map.imports ?? {}));
    } catch {
      // A broken import map is the browser's to report; it maps nothing.
    }
  }
  return keys;
}

/**
 * The URLs a page makes the browser fetch on every load, as written in it: `<script src>`, and
 * `<link href>` for stylesheets and module preloads. Images and the rest may load lazily or not
 * at all, so they are left to be asked for.
 */
export function linkedUrls(html: string): string[] {
  const found: string[] = [];
  const attr = (tag: string, name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i')
      .exec(tag)
      ?.slice(1)
      .find((v) => v !== undefined);
  for (const [tag] of html.replace(/<!--[\s\S]*?-->/g, '').matchAll(/<(?:script|link)\b[^>]*>/gi)) {
    const type = attr(tag, 'type')?.trim().toLowerCase() ?? '';
    const fetched =
      /^<link/i.test(tag) ||
      (!/\snomodule\b/i.test(tag) && ['', 'module', 'text/javascript', 'application/javascript'].includes(type));
    const url = !fetched
      ? undefined
      : /^<script/i.test(tag)
        ? attr(tag, 'src')
        : /^(?:stylesheet|modulepreload)$/i.test(attr(tag, 'rel')?.trim() ?? '')
          ? attr(tag, 'href')
          : undefined;
    if (url && !/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(url.trim())) found.push(url.trim());
  }
  return [...new Set(found)];
}

/**
 * Answers the previewed page's requests from the workspace as it is now: `index.html` for folders,
 * content types by extension, TypeScript and JSX turned into modules, bare imports resolved
 * through the page's import map or the workspace's node_modules. It keeps no copy of a file
 * beyond one page load, and then only package.json texts and which paths exist.
 */
export function createFileServer(options: FileServerOptions) {
  /** The import map of the page served last: modules it loads are resolved against it. */
  let mapped: string[] = [];

  /**
   * What this page load has learnt of the workspace: which paths are files, folders or nothing,
   * and the text of each package.json. Module resolution asks the same of them again and again
   * (every bare import walks the node_modules folders up from its importer), and each question is
   * a trip to the workspace's worker. Forgotten when a page is served, so a reload sees every change.
   */
  let kinds = new Map<string, Promise<PreviewEntry['kind']>>();
  let manifests = new Map<string, Promise<string | null>>();

  const read = async (rel: string): Promise<string | null> => {
    // The load this read belongs to: one that ends after a new page was served tells only its own load.
    const known = kinds;
    const found = await options.entry(rel);
    if (!known.has(rel)) known.set(rel, Promise.resolve(found.kind));
    return found.kind === 'file' ? decoder.decode(found.bytes) : null;
  };
  const readText = (rel: string): Promise<string | null> => {
    if (!rel.endsWith('package.json')) return read(rel);
    let text = manifests.get(rel);
    if (!text) {
      text = read(rel);
      manifests.set(rel, text);
    }
    return text;
  };
  const kindOf = (rel: string): Promise<PreviewEntry['kind']> => {
    let kind = kinds.get(rel);
    if (!kind) {
      kind = options.kind ? options.kind(rel) : options.entry(rel).then((found) => found.kind);
      kinds.set(rel, kind);
    }
    return kind;
  };

  /** tsconfig.json's JSX settings (package.json's React when tsconfig is silent), read once per page load (a reload reads them again). */
  let jsx: Promise<JsxSettings> | null = null;
  function jsxSettings(): Promise<JsxSettings> {
    jsx ??= (async () => {
      const root = options.root();
      const { jsxSettingsFrom } = await transformer();
      const nearest = async (name: string) =>
        (root ? await readText(join(root, name)) : null) ?? (await readText(name));
      return jsxSettingsFrom(await nearest('tsconfig.json'), await nearest('package.json'));
    })();
    return jsx;
  }

  const files: ModuleFiles = {
    readText,
    isFile: async (rel) => (await kindOf(rel)) === 'file',
    isDirectory: async (rel) => (await kindOf(rel)) === 'directory',
  };
  const modules = createModuleServer({
    files,
    mapped: () => mapped,
    jsxSettings,
    onProblem: (message) => options.onProblem({ message }),
  });

  async function serveModule(
    rel: string,
    bytes: Uint8Array,
    variant: ModuleVariant,
    names?: string[],
  ): Promise<ServedFile> {
    const answer = await modules.serveModule(rel, decoder.decode(bytes), variant, names);
    if (!answer.ok) return text(answer.status, answer.message);
    return {
      status: 200,
      headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' },
      body: encoder.encode(answer.code),
      ...(answer.imports.length ? { imports: answer.imports } : {}),
    };
  }

  function servePage(html: string): ServedFile {
    // A page starts a load: what it and its modules read from tsconfig.json is read afresh.
    jsx = null;
    kinds = new Map();
    manifests = new Map();
    modules.newLoad();
    mapped = importMapKeys(html);
    const hook = pageHookTag(options.playgroundOrigin, options.prefix);
    const head = /<head\b[^>]*>/i.exec(html);
    const page = head
      ? `${html.slice(0, head.index + head[0].length)}${hook}${html.slice(head.index + head[0].length)}`
      : /^\s*<!doctype[^>]*>/i.test(html)
        ? html.replace(/^\s*<!doctype[^>]*>/i, (d) => `${d}${hook}`)
        : `${hook}${html}`;
    return { ...text(200, page, 'text/html; charset=utf-8'), links: linkedUrls(html) };
  }

  async function listing(rel: string, urlPath: string): Promise<ServedFile> {
    const shown = rel || 'the workspace';
    return servePage(
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(shown)}</title></head><body style="font:14px system-ui;margin:2rem">` +
        `<h1 style="font-size:18px">No index.html in ${escapeHtml(shown)}</h1><p>Add an <code>index.html</code> to this folder to see it here.</p>` +
        `<p style="color:#666">${escapeHtml(urlPath || '/')}</p></body></html>`,
    );
  }

  /**
   * Answer one request: `urlPath` is the path below the session's prefix, URL-encoded and with any
   * query; `referrer` is the same for the page or module that asked, when known.
   */
  async function serve(urlPath: string, referrer = ''): Promise<ServedFile> {
    const bare = urlPath.replace(/[?#].*$/, '');
    let decoded: string;
    try {
      decoded = decodeURIComponent(bare);
    } catch {
      return text(400, 'That address is not valid.');
    }
    if (decoded.startsWith(MISSING_PREFIX))
      return text(
        200,
        modules.missingModule(
          decoded.slice(MISSING_PREFIX.length),
          (/[?&]names=([^&#]*)/.exec(urlPath)?.[1] ?? '').split(',').filter(Boolean).map(decodeURIComponentSafe),
        ),
        'text/javascript; charset=utf-8',
      );
    if (decoded === `${SANDPIT_PREFIX}cjs.js`)
      return text(200, cjsRuntimeModule(NODE_ENV), 'text/javascript; charset=utf-8');
    if (decoded === `${SANDPIT_PREFIX}empty.js`)
      return text(200, 'export default {};\n', 'text/javascript; charset=utf-8');
    const variant = /[?&]sandpit=(define|css|json)\b/.exec(urlPath)?.[1] as ModuleVariant;
    const rel = decoded.startsWith(FS_PREFIX) ? join(decoded.slice(FS_PREFIX.length)) : join(options.root(), decoded);
    const asked = decoded.replace(/\/$/, '');
    let found = await options.entry(rel);
    let served = rel;
    if (found.kind === 'missing') {
      // TypeScript imports name the output (`./greet.js` for greet.ts), and bundlers allow no extension at all.
      for (const candidate of sourceCandidates(rel)) {
        const entry = await options.entry(candidate);
        if (entry.kind === 'file') {
          found = entry;
          served = candidate;
          break;
        }
      }
    }
    if (found.kind === 'directory') {
      if (bare !== '' && !bare.endsWith('/'))
        return text(301, '', 'text/plain', { location: `${bare.slice(bare.lastIndexOf('/') + 1)}/` });
      const index = join(rel, 'index.html');
      const page = await options.entry(index);
      return page.kind === 'file' ? servePage(decoder.decode(page.bytes)) : listing(rel, decoded);
    }
    if (found.kind === 'missing') {
      const by = referrer
        ? ` (asked for by ${decodeURIComponentSafe(referrer.replace(/[?#].*$/, '')) || 'the page'})`
        : '';
      options.onProblem({ message: `Not found: ${asked || '/'}${by}. No such file in the workspace.` });
      return text(404, `Not found: ${asked}`);
    }
    if (variant) return serveModule(served, found.bytes, variant);
    if (/\.html?$/i.test(served)) return servePage(decoder.decode(found.bytes));
    const packageScript = /(?:^|\/)node_modules\/.*\.cjs$/.test(served);
    if ((isModuleSource(served) || packageScript) && !served.endsWith('.d.ts')) {
      // A CommonJS file's facade exporting just what its importer takes (see module-server.ts).
      const names = /[?&]names=([^&#]*)/.exec(urlPath)?.[1];
      return serveModule(
        served,
        found.bytes,
        undefined,
        names === undefined ? undefined : names.split(',').filter(Boolean),
      );
    }
    return {
      status: 200,
      headers: { 'content-type': contentTypeOf(served), 'cache-control': 'no-store' },
      body: found.bytes,
    };
  }

  return {
    serve,
    /** A workspace file was just written with this text: transpile it ahead of the reload (see module-server.ts). */
    prepare: (rel: string, source: string) => modules.prepare(rel, source),
  };
}

/** The sources a module URL may stand for when no file has its exact name. */
function sourceCandidates(rel: string): string[] {
  const ext = /\.(m?js|jsx)$/.exec(rel);
  if (ext) {
    const stem = rel.slice(0, -ext[0].length);
    return ext[1] === 'mjs' ? [`${stem}.mts`] : [`${stem}.ts`, `${stem}.tsx`];
  }
  if (/\.[a-z0-9]+$/i.test(rel.slice(rel.lastIndexOf('/') + 1))) return [];
  return ['.ts', '.tsx', '.js', '.jsx', '/index.ts', '/index.tsx', '/index.js'].map((suffix) => `${rel}${suffix}`);
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
