const STATIC_IMPORT = /(\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?)(["'])([^"'\n]+)\2/g;
const DYNAMIC_IMPORT = /(\bimport\s*\(\s*)(["'])([^"'\n]+)\2(\s*\))/g;

/**
 * The names an import or re-export clause takes from its module (`default` for a default import,
 * `*` when it takes them all: a namespace import or `export *`).
 */
function namesIn(head: string): string[] {
  const names: string[] = [];
  if (/^import\s+[\w$]+\s*(?:,|from\b)/.test(head)) names.push('default');
  if (/^(?:import|export)\b[^{]*\*/.test(head)) names.push('*');
  const braces = /\{([^}]*)\}/.exec(head);
  for (const part of braces?.[1]?.split(',') ?? []) {
    const name = part
      .trim()
      .replace(/^type\s+/, '')
      .split(/\s+as\s+/)[0]!
      .trim();
    if (name) names.push(name);
  }
  return names;
}

/** A module's text with its specifiers replaced, and the specifiers its static imports and re-exports now name. */
export interface RewrittenModule {
  code: string;
  /** the URLs of static imports and re-exports, as the rewritten text names them (what the browser fetches before the module runs) */
  imports: string[];
}

/**
 * Replace the specifiers of a module's imports and re-exports (static, and dynamic with a
 * literal) by what `resolve` returns for each; a null answer keeps the specifier. `resolve` also
 * hears the names the module takes from each specifier (`*` for all of them).
 */
export async function rewriteImports(
  code: string,
  resolve: (spec: string, names: string[]) => Promise<string | null>,
): Promise<RewrittenModule> {
  const specs = new Map<string, Set<string>>();
  const statics = new Set<string>();
  for (const re of [STATIC_IMPORT, DYNAMIC_IMPORT])
    for (const match of code.matchAll(re)) {
      const names = specs.get(match[3]!) ?? new Set<string>();
      for (const name of re === STATIC_IMPORT ? namesIn(match[1]!) : ['*']) names.add(name);
      specs.set(match[3]!, names);
      if (re === STATIC_IMPORT) statics.add(match[3]!);
    }
  if (specs.size === 0) return { code, imports: [] };
  const resolved = new Map<string, string | null>();
  for (const [spec, names] of specs) resolved.set(spec, await resolve(spec, [...names]));
  const swap = (whole: string, head: string, quote: string, spec: string, tail = '') => {
    const to = resolved.get(spec);
    return to ? `${head}${quote}${to}${quote}${tail}` : whole;
  };
  return {
    code: code
      .replace(STATIC_IMPORT, (w, h, q, s) => swap(w, h, q, s))
      .replace(DYNAMIC_IMPORT, (w, h, q, s, t) => swap(w, h, q, s, t)),
    // A bare specifier left as written is the import map's to resolve, so it names no URL here.
    imports: [...statics].map((spec) => resolved.get(spec) ?? spec).filter((spec) => /^(?:\/|\.\.?\/)/.test(spec)),
  };
}
