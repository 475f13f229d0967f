/** A module specifier that names a package (`react`, `@scope/pkg/sub`) rather than a URL or a path. */
export function isBareSpecifier(spec: string): boolean {
  return !/^(\.{0,2}\/|[a-z][a-z0-9+.-]*:)/i.test(spec);
}

/** `@scope/name/sub/path` → { name: '@scope/name', sub: './sub/path' }. */
export function splitPackage(spec: string): { name: string; sub: string } {
  const parts = spec.split('/');
  const size = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(size).join('/');
  return { name: parts.slice(0, size).join('/'), sub: rest ? `./${rest}` : '.' };
}

type Exports = string | null | Exports[] | { [key: string]: Exports };

/** The conditions a browser module loader meets, in the order a bundler for the browser prefers them. */
const CONDITIONS = ['browser', 'import', 'module', 'default'];

function pickCondition(value: Exports | undefined): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = pickCondition(item);
      if (found) return found;
    }
    return null;
  }
  if (!value || typeof value !== 'object') return null;
  for (const condition of CONDITIONS)
    if (condition in value) {
      const found = pickCondition(value[condition]);
      if (found) return found;
    }
  return null;
}

/**
 * The file inside a package that an ES module import of `sub` loads, from its package.json: the
 * `exports` map first, then `module`, a string `browser`, or `main` when the package says it is an
 * ES module package. Null when the package offers no ES module build for it.
 */
export function packageEntry(pkg: Record<string, unknown>, sub: string): string | null {
  const exports = pkg.exports as Exports | undefined;
  if (exports !== undefined && exports !== null) {
    const keyed =
      typeof exports === 'object' && !Array.isArray(exports) && Object.keys(exports).some((k) => k.startsWith('.'));
    if (!keyed) return sub === '.' ? pickCondition(exports) : null;
    const map = exports as Record<string, Exports>;
    if (sub in map) return pickCondition(map[sub]);
    for (const [key, value] of Object.entries(map)) {
      // "./*": "./dist/*.js" — one wildcard, as Node's subpath patterns allow.
      const star = key.indexOf('*');
      if (star < 0 || !sub.startsWith(key.slice(0, star)) || !sub.endsWith(key.slice(star + 1))) continue;
      const target = pickCondition(value);
      if (target) return target.replace('*', sub.slice(star, sub.length - (key.length - star - 1)));
    }
    return null;
  }
  if (sub !== '.') return sub;
  if (typeof pkg.module === 'string') return pkg.module;
  if (typeof pkg.browser === 'string') return pkg.browser;
  if (pkg.type === 'module') return typeof pkg.main === 'string' ? pkg.main : './index.js';
  return typeof pkg.main === 'string' && pkg.main.endsWith('.mjs') ? pkg.main : null;
}

const STATIC_IMPORT = /(\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?)(["'])([^"'\n]+)\2/g;
const DYNAMIC_IMPORT = /(\bimport\s*\(\s*)(["'])([^"'\n]+)\2(\s*\))/g;

/**
 * Replace the bare specifiers of a module's imports and re-exports (static and dynamic with a
 * literal) by what `resolve` returns for each; a null answer keeps the specifier.
 */
export async function rewriteBareImports(
  code: string,
  resolve: (spec: string) => Promise<string | null>,
): Promise<string> {
  const specs = new Set<string>();
  for (const re of [STATIC_IMPORT, DYNAMIC_IMPORT])
    for (const match of code.matchAll(re)) if (isBareSpecifier(match[3]!)) specs.add(match[3]!);
  if (specs.size === 0) return code;
  const resolved = new Map<string, string | null>();
  for (const spec of specs) resolved.set(spec, await resolve(spec));
  const swap = (whole: string, head: string, quote: string, spec: string, tail = '') => {
    const to = isBareSpecifier(spec) ? resolved.get(spec) : null;
    return to ? `${head}${quote}${to}${quote}${tail}` : whole;
  };
  return code
    .replace(STATIC_IMPORT, (w, h, q, s) => swap(w, h, q, s))
    .replace(DYNAMIC_IMPORT, (w, h, q, s, t) => swap(w, h, q, s, t));
}
