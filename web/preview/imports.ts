const STATIC_IMPORT = /(\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?)(["'])([^"'\n]+)\2/g;
const DYNAMIC_IMPORT = /(\bimport\s*\(\s*)(["'])([^"'\n]+)\2(\s*\))/g;

/**
 * Replace the specifiers of a module's imports and re-exports (static, and dynamic with a
 * literal) by what `resolve` returns for each; a null answer keeps the specifier.
 */
export async function rewriteImports(code: string, resolve: (spec: string) => Promise<string | null>): Promise<string> {
  const specs = new Set<string>();
  for (const re of [STATIC_IMPORT, DYNAMIC_IMPORT]) for (const match of code.matchAll(re)) specs.add(match[3]!);
  if (specs.size === 0) return code;
  const resolved = new Map<string, string | null>();
  for (const spec of specs) resolved.set(spec, await resolve(spec));
  const swap = (whole: string, head: string, quote: string, spec: string, tail = '') => {
    const to = resolved.get(spec);
    return to ? `${head}${quote}${to}${quote}${tail}` : whole;
  };
  return code
    .replace(STATIC_IMPORT, (w, h, q, s) => swap(w, h, q, s))
    .replace(DYNAMIC_IMPORT, (w, h, q, s, t) => swap(w, h, q, s, t));
}
