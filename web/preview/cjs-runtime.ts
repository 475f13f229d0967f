/** The environment previewed packages see, as a development build of a bundler sets it. */
export const NODE_ENV = 'development';

/**
 * The CommonJS registry every previewed page shares, served as one module (`/@sandpit/cjs.js`).
 * A wrapped CommonJS file `define`s its factory when its module is evaluated and runs only when
 * first `load`ed, after every module of the graph has been defined: so a `require` is synchronous
 * and a cycle of requires sees a partly filled `exports`, as in Node.
 * It is serialised with `toString`, so it may use nothing from outside its own body.
 */
function cjsRuntime(nodeEnv: string) {
  type Target = string | { builtin: string } | { missing: string } | { empty: true } | { absent: string };
  interface Record_ {
    deps?: Record<string, Target>;
    factory?: (...args: unknown[]) => void;
    module?: { id: string; exports: unknown; loaded: boolean } | null;
  }
  const records = new Map<string, Record_>();
  const process = {
    env: { NODE_ENV: nodeEnv },
    browser: true,
    argv: [] as string[],
    version: '',
    versions: {},
    platform: 'browser',
    cwd: () => '/',
    nextTick: (fn: (...a: unknown[]) => void, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
    on: () => process,
    once: () => process,
    off: () => process,
    emit: () => false,
  };
  const fail = (message: string, code = 'MODULE_NOT_FOUND') => Object.assign(new Error(message), { code });

  /** Register a CommonJS module's factory and what each of its `require` specifiers leads to. */
  function define(id: string, deps: Record<string, Target>, factory: (...args: unknown[]) => void): void {
    if (!records.has(id)) records.set(id, { deps, factory, module: null });
  }

  /** Register an ES module a CommonJS module requires: it gets the namespace, marked as bundlers mark it. */
  function esm(id: string, namespace: Record<string, unknown>): void {
    if (records.has(id)) return;
    const exports: Record<string, unknown> = Object.create(null);
    for (const key of Object.keys(namespace))
      Object.defineProperty(exports, key, { enumerable: true, get: () => namespace[key] });
    Object.defineProperty(exports, '__esModule', { value: true });
    records.set(id, { module: { id, exports, loaded: true } });
  }

  function requireFrom(record: Record_) {
    const require = (spec: string): unknown => {
      const target = record.deps?.[spec];
      if (target === undefined)
        throw fail(`Cannot find module '${spec}': only a require of a literal name is loaded ahead in the preview`);
      if (typeof target === 'string') return load(target);
      if ('empty' in target) return {};
      if ('builtin' in target) throw fail(`Node's built-in module '${target.builtin}' is not available in the preview`);
      if ('missing' in target) throw fail(`Cannot find package '${target.missing}': run npm install`);
      throw fail(`Cannot find module '${spec}': ${target.absent}`);
    };
    require.resolve = (spec: string) => {
      const target = record.deps?.[spec];
      if (typeof target === 'string') return target;
      throw fail(`Cannot find module '${spec}'`);
    };
    require.cache = Object.create(null);
    return require;
  }

  /** Run a defined module (once) and give its `module.exports`. */
  function load(id: string): unknown {
    const record = records.get(id);
    if (!record) throw fail(`The module ${id} was not loaded ahead`);
    if (record.module) return record.module.exports;
    const module = { id, exports: {} as unknown, loaded: false };
    record.module = module;
    const dir = id.slice(0, id.lastIndexOf('/'));
    try {
      record.factory!.call(module.exports, module, module.exports, requireFrom(record), process, globalThis, id, dir);
    } catch (error) {
      record.module = null;
      throw error;
    }
    module.loaded = true;
    return module.exports;
  }

  return { define, esm, load, process };
}

/** The text of the registry module, for the environment's `NODE_ENV`. */
export function cjsRuntimeModule(nodeEnv: string): string {
  return `const runtime = (${cjsRuntime.toString()})(${JSON.stringify(nodeEnv)});\nexport const { define, esm, load, process } = runtime;\n`;
}
