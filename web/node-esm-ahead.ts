import { importSpecifiers, requireSpecifiers } from '../src/modules/commonjs-source.js';

/** What the walk needs to know of a script's files. */
export interface ScriptGraph {
  /** a file's text, or undefined when the copy does not hold it */
  text(file: string): string | undefined;
  /** whether a file runs as CommonJS (else it is an ES module) */
  runsAsCjs(file: string): boolean;
  /** the file a literal specifier of `from` leads to, or undefined (a built-in, nothing there) */
  target(spec: string, from: string): string | undefined;
}

/**
 * The ES modules that CommonJS modules of a script require, in the order to load them: a
 * `require` is synchronous and a worker loads an ES module only asynchronously, so every such
 * module is imported before the script starts (deepest first, so what one of them reaches is
 * ready before it). From the entries, each CommonJS file's literal `require`s and each ES
 * module's imports are followed.
 */
export function esmRequiredAhead(graph: ScriptGraph, entries: Array<{ file: string; text: string; cjs: boolean }>) {
  const ahead: string[] = [];
  const seen = new Set<string>();
  const visit = (file: string, text: string, cjs: boolean) => {
    seen.add(file);
    for (const spec of cjs ? requireSpecifiers(text) : importSpecifiers(text)) {
      const target = graph.target(spec, file);
      if (target === undefined || !/\.(?:c|m)?js$/.test(target)) continue;
      const targetCjs = graph.runsAsCjs(target);
      if (!seen.has(target)) {
        const targetText = graph.text(target);
        if (targetText !== undefined) visit(target, targetText, targetCjs);
      }
      if (cjs && !targetCjs && !ahead.includes(target)) ahead.push(target);
    }
  };
  for (const entry of entries) visit(entry.file, entry.text, entry.cjs);
  return ahead;
}

/**
 * What `require` of an ES module gives, as Node 22 gives it: its `"module.exports"` export when it
 * has one, else its namespace, marked `__esModule` when it has a default export (for code compiled
 * from ES modules). A namespace cannot take a property, so then its names are mirrored, live.
 */
export function requireResult(namespace: Record<string, unknown>): unknown {
  if ('module.exports' in namespace) return namespace['module.exports'];
  if (!('default' in namespace) || '__esModule' in namespace) return namespace;
  const marked: Record<string, unknown> = Object.create(null);
  for (const key of Object.keys(namespace))
    Object.defineProperty(marked, key, { enumerable: true, get: () => namespace[key] });
  return Object.defineProperty(marked, '__esModule', { value: true });
}
