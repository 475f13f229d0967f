import type { WorkspaceFs } from '../../src/index.js';

/**
 * `inner` with each call of the operations named in `only` (all when left out) first shown to
 * `before`, which may count it or hold it back: a promise it returns is waited for before the
 * call runs. Every other call goes straight to `inner`.
 */
export function watchedFs(
  inner: WorkspaceFs,
  before: (operation: string, args: unknown[]) => void | Promise<void>,
  only?: ReadonlySet<string>,
): WorkspaceFs {
  return new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== 'function') return value;
      if (typeof name !== 'string' || (only && !only.has(name))) return value.bind(target);
      return (...args: unknown[]) => {
        const held = before(name, args);
        return held ? held.then(() => value.apply(target, args)) : value.apply(target, args);
      };
    },
  });
}
