import { createRequire } from 'node:module';

let required: NodeJS.Require | undefined;

/**
 * A Node builtin loaded on first use rather than with the module that needs it, and through
 * require: an ES module namespace reads every export (node:crypto's includes webcrypto, which loads
 * it). `process.getBuiltinModule` (Node 20.16 and later) needs no require function made first,
 * which costs about a millisecond of a server's start-up.
 */
export function nodeBuiltin<T>(id: `node:${string}`): T {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  if (get) return get(id) as T;
  required ??= createRequire(import.meta.url);
  return required(id) as T;
}
