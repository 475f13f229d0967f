/** A package.json `exports` (or one of its values), as Node's resolver reads it. */
export type ExportsValue = string | null | ExportsValue[] | { [key: string]: ExportsValue };

/** What `exports` says about a subpath: the target inside the package, excluded (null), or not named (undefined). */
export type ExportsAnswer = string | null | undefined;

/**
 * Whether a target string may be used: `./` inside the package always; for `imports` also a
 * package name (`"#dep": "other-pkg/sub"`), but never `../`, `/`, `#` or a URL (Node's rule).
 */
const validTarget = (value: string, bare: boolean) =>
  value.startsWith('./') || (bare && !/^(?:\.\.?\/|\/|#)/.test(value) && !/^[a-z][a-z0-9+.-]*:/i.test(value));

/**
 * The target a conditional value picks: object keys are tried in the order the package wrote
 * them (as Node and bundlers do), the first one that is an active condition or `default` wins;
 * arrays are fallbacks, tried in turn.
 */
function pickTarget(value: ExportsValue | undefined, conditions: readonly string[], bare = false): ExportsAnswer {
  if (value === undefined) return undefined;
  if (value === null) return null;
  if (typeof value === 'string') return validTarget(value, bare) ? value : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = pickTarget(item, conditions, bare);
      if (typeof found === 'string') return found;
    }
    return undefined;
  }
  for (const [key, inner] of Object.entries(value)) {
    if (key !== 'default' && !conditions.includes(key)) continue;
    const found = pickTarget(inner, conditions, bare);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether an `exports` object is keyed by subpaths (`.`, `./x`) rather than by conditions. */
function keyedBySubpath(exports: ExportsValue): exports is { [key: string]: ExportsValue } {
  return typeof exports === 'object' && exports !== null && !Array.isArray(exports)
    ? Object.keys(exports).some((key) => key.startsWith('.'))
    : false;
}

/** Resolve `sub` ('.' or './x/y') through a package's `exports` under the active conditions. */
export function resolveExports(exports: ExportsValue, sub: string, conditions: readonly string[]): ExportsAnswer {
  if (!keyedBySubpath(exports)) return sub === '.' ? pickTarget(exports, conditions) : undefined;
  return matchKeys(exports, sub, conditions, false);
}

/**
 * Resolve a `#name` specifier through a package's `imports` under the active conditions, with
 * the same exact-then-pattern order as `exports`. The answer is `./path` inside the package or
 * a package specifier (`imports` may point at a dependency).
 */
export function resolveImports(imports: ExportsValue, spec: string, conditions: readonly string[]): ExportsAnswer {
  if (typeof imports !== 'object' || imports === null || Array.isArray(imports)) return undefined;
  if (spec === '#' || spec.startsWith('#/')) return undefined;
  return matchKeys(imports, spec, conditions, true);
}

/** An exact key first, then `*` patterns, the longest prefix winning (Node's order for both maps). */
function matchKeys(
  map: { [key: string]: ExportsValue },
  sub: string,
  conditions: readonly string[],
  bare: boolean,
): ExportsAnswer {
  if (Object.hasOwn(map, sub) && !sub.includes('*')) return pickTarget(map[sub], conditions, bare);
  let best: { prefix: string; suffix: string; value: ExportsValue } | undefined;
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (!sub.startsWith(prefix) || !sub.endsWith(suffix) || sub.length < key.length) continue;
    if (!best || prefix.length > best.prefix.length) best = { prefix, suffix, value };
  }
  if (!best) return undefined;
  const target = pickTarget(best.value, conditions, bare);
  if (typeof target !== 'string') return target;
  const middle = sub.slice(best.prefix.length, sub.length - best.suffix.length);
  return target.replaceAll('*', middle);
}
