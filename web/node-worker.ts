/// <reference lib="webworker" />
import { isCommonJs } from '../src/modules/commonjs-source.js';
import type { ScriptJob } from '../src/shell/commands/shell/node.js';
import { esmRequiredAhead, requireResult } from './node-esm-ahead.js';
import { createFs, createPath } from './node-fs.js';
import type { ScriptMessage } from './node-host.js';
import { formatArgs, inspect } from './node-inspect.js';

/**
 * The script worker behind the shell's `node`: plain JavaScript and ES modules with `console`,
 * `process`, `require`/`import` of workspace files and `fs` over the copied-in workspace. It runs
 * one job; the host terminates it afterwards (or at the timeout).
 */
class ProcessExit {
  constructor(readonly code: number) {}
}

const scope = self as unknown as DedicatedWorkerGlobalScope;
const dec = new TextDecoder();
let finished = false;

scope.onmessage = (event: MessageEvent<ScriptJob>) => {
  void run(event.data);
};

async function run(job: ScriptJob): Promise<void> {
  const post = (m: ScriptMessage) => scope.postMessage(m);
  const files = new Map(job.files);
  const dirs = new Set<string>(['/']);
  for (const p of files.keys())
    for (let i = p.indexOf('/', 1); i > 0; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
  const writes = new Map<string, Uint8Array | null>();
  let cwd = job.cwd;
  const path = createPath(() => cwd);
  const fs = createFs(files, dirs, writes, (p) => path.resolve(p));
  const out = (text: string) => post({ type: 'out', text });
  const err = (text: string) => post({ type: 'err', text });
  const eval_ = job.argv[0] === '-e' || job.argv[0] === '-p';
  const entry = eval_ ? '[eval]' : job.argv[0]!;
  const proc = {
    argv: ['/usr/local/bin/node', ...(eval_ ? job.argv.slice(2) : [entry, ...job.argv.slice(1)])],
    env: { ...job.env },
    exitCode: undefined as number | undefined,
    platform: 'linux',
    version: 'v20.0.0',
    versions: { node: '20.0.0' },
    cwd: () => cwd,
    chdir: (d: string) => {
      const p = path.resolve(d);
      if (!dirs.has(p))
        throw Object.assign(new Error(`ENOENT: no such file or directory, chdir '${d}'`), { code: 'ENOENT' });
      cwd = p;
    },
    exit: (code?: number) => {
      throw new ProcessExit(code ?? proc.exitCode ?? 0);
    },
    stdout: {
      write: (s: unknown) => {
        out(String(s));
        return true;
      },
      isTTY: false,
    },
    stderr: {
      write: (s: unknown) => {
        err(String(s));
        return true;
      },
      isTTY: false,
    },
    stdin: { read: () => job.stdin },
    nextTick: (f: (...a: unknown[]) => void, ...a: unknown[]) => queueMicrotask(() => f(...a)),
    hrtime: Object.assign(() => [Math.floor(performance.now() / 1000), 0], {
      bigint: () => BigInt(Math.round(performance.now() * 1e6)),
    }),
    on: () => proc,
    once: () => proc,
  };
  const done = (code: number) => {
    if (finished) return;
    finished = true;
    post({ type: 'done', exitCode: code, writes: [...writes] });
  };
  const fail = (e: unknown) => {
    if (e instanceof ProcessExit) return done(e.code);
    err(`${e instanceof Error ? (e.stack ?? String(e)) : `Uncaught ${inspect(e)}`}\n`);
    done(1);
  };
  scope.addEventListener('error', (event) => {
    event.preventDefault();
    fail(event.error);
  });
  scope.addEventListener('unhandledrejection', (event) => {
    event.preventDefault();
    fail(event.reason);
  });

  // Count pending timers: like Node, the script ends when nothing is left to run.
  let pending = 0;
  const realSetTimeout = scope.setTimeout.bind(scope);
  const realClearTimeout = scope.clearTimeout.bind(scope);
  const realSetInterval = scope.setInterval.bind(scope);
  const realClearInterval = scope.clearInterval.bind(scope);
  const timers = new Set<number>();
  // The script's own timers and console are handed to its code rather than patched onto the
  // worker's globals, so nothing else living in the worker (a dev server's client pinging on an
  // interval, say) keeps the script alive or writes to its output.
  const g = globalThis as Record<string, unknown>;
  const setTimeout_ = (f: () => void, ms?: number, ...a: unknown[]) => {
    pending++;
    const id = realSetTimeout(() => {
      timers.delete(id);
      pending--;
      try {
        f.apply(null, a as []);
      } catch (e) {
        fail(e);
      }
    }, ms);
    timers.add(id);
    return id;
  };
  const clearTimeout_ = (id: number) => {
    if (timers.delete(id)) {
      pending--;
      realClearTimeout(id);
    }
  };
  const intervals = new Set<number>();
  const setInterval_ = (f: () => void, ms?: number) => {
    const id = realSetInterval(() => {
      try {
        f();
      } catch (e) {
        fail(e);
      }
    }, ms);
    intervals.add(id);
    return id;
  };
  const clearInterval_ = (id: number) => {
    intervals.delete(id);
    realClearInterval(id);
  };
  const setImmediate_ = (f: () => void) => setTimeout_(f, 0);

  const consoleOut = (...a: unknown[]) => out(`${formatArgs(a)}\n`);
  const consoleErr = (...a: unknown[]) => err(`${formatArgs(a)}\n`);
  const console_ = {
    log: consoleOut,
    info: consoleOut,
    debug: consoleOut,
    dir: (v: unknown) => out(`${inspect(v)}\n`),
    error: consoleErr,
    warn: consoleErr,
    trace: consoleErr,
    table: consoleOut,
    assert: (c: unknown, ...a: unknown[]) => {
      if (!c) consoleErr('Assertion failed:', ...a);
    },
  };
  const scriptScope: Record<string, unknown> = {
    console: console_,
    process: proc,
    setTimeout: setTimeout_,
    clearTimeout: clearTimeout_,
    setInterval: setInterval_,
    clearInterval: clearInterval_,
    setImmediate: setImmediate_,
    clearImmediate: clearTimeout_,
  };
  const scopeNames = Object.keys(scriptScope);
  const scopeValues = Object.values(scriptScope);
  g.__sandpitScope = scriptScope;
  /** Compile script text as a function of `params` that closes over the script scope, so the script may still declare its own `console` or `setTimeout`. */
  const compile = (params: string[], body: string, sourceUrl?: string) =>
    (
      new Function(
        ...scopeNames,
        `return function (${params.join(', ')}) {\n${body}\n}${sourceUrl ? `\n//# sourceURL=${sourceUrl}` : ''}`,
      ) as (...a: unknown[]) => (...a: unknown[]) => unknown
    )(...scopeValues);
  const esmPrelude = (body: string) => {
    const own = scopeNames.filter(
      (n) =>
        !new RegExp(`\\b(?:const|let|var|function|class)\\s+${n}\\b|\\bimport\\b[^;]*\\b${n}\\b[^;]*\\bfrom\\b`).test(
          body,
        ),
    );
    return own.length ? `const { ${own.join(', ')} } = globalThis.__sandpitScope;` : '';
  };
  g.process = proc;
  const util = {
    format: (...a: unknown[]) => formatArgs(a),
    inspect,
    promisify:
      (f: (...a: unknown[]) => void) =>
      (...a: unknown[]) =>
        new Promise((res, rej) => f(...a, (e: unknown, v: unknown) => (e ? rej(e) : res(v)))),
  };
  const builtins: Record<string, unknown> = {
    fs,
    'fs/promises': fs.promises,
    path,
    'path/posix': path,
    process: proc,
    util,
    os: { EOL: '\n', platform: () => 'linux', tmpdir: () => '/tmp', homedir: () => '/' },
    assert: Object.assign(
      (c: unknown, m?: string) => {
        if (!c) throw new Error(m ?? 'Assertion failed');
      },
      {
        equal: (a: unknown, b: unknown) => {
          // biome-ignore lint/suspicious/noDoubleEquals: assert.equal is loose equality by definition
          if (a != b) throw new Error(`${inspect(a)} == ${inspect(b)}`);
        },
        strictEqual: (a: unknown, b: unknown) => {
          if (a !== b) throw new Error(`Expected values to be strictly equal:\n\n${inspect(a)} !== ${inspect(b)}\n`);
        },
      },
    ),
  };
  const builtinOf = (spec: string) => builtins[spec.replace(/^node:/, '')];

  const cache = new Map<string, { exports: unknown }>();
  const resolveFile = (spec: string, dir: string): string => {
    const base = path.resolve(dir, spec);
    for (const c of [base, `${base}.js`, `${base}.cjs`, `${base}.mjs`, `${base}.json`, `${base}/index.js`])
      if (files.has(c)) return c;
    throw Object.assign(new Error(`Cannot find module '${spec}'`), { code: 'MODULE_NOT_FOUND' });
  };
  // Where each literal require and import that reaches node_modules leads, resolved by the host ahead.
  const resolved = new Map(job.resolved ?? []);
  const evalFile = `${cwd.replace(/\/$/, '')}/[eval]`;
  const makeRequire =
    (dir: string, from: string) =>
    (spec: string): unknown => {
      const b = builtinOf(spec);
      if (b) return b;
      const target = resolved.get(`${from}\0${spec}`);
      if (target) return loadCjs(target);
      if (spec.startsWith('#'))
        throw Object.assign(new Error(`Package import specifier '${spec}' is not defined in package.json imports`), {
          code: 'ERR_PACKAGE_IMPORT_NOT_DEFINED',
        });
      if (!/^\.{0,2}\//.test(spec))
        throw Object.assign(new Error(`Cannot find module '${spec}': is it installed? Run npm install`), {
          code: 'MODULE_NOT_FOUND',
        });
      return loadCjs(resolveFile(spec, dir));
    };
  /** Where a literal specifier of `from` leads without running anything, for the walk ahead. */
  const targetOf = (spec: string, from: string): string | undefined => {
    if (builtinOf(spec)) return undefined;
    const target = resolved.get(`${from}\0${spec}`);
    if (target || !/^\.{0,2}\//.test(spec)) return target;
    try {
      return resolveFile(spec, path.dirname(from));
    } catch {
      return undefined;
    }
  };
  /** Whether a file runs as CommonJS: by extension, its package's `type`, then its syntax, as Node decides. */
  const packageType = (file: string): 'module' | 'commonjs' => {
    for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
      const manifest = files.get(`${dir === '/' ? '' : dir}/package.json`);
      if (manifest) return /"type"\s*:\s*"module"/.test(dec.decode(manifest)) ? 'module' : 'commonjs';
      if (dir === '/') return 'commonjs';
    }
  };
  const runsAsCjs = (file: string) =>
    file.endsWith('.json') || isCommonJs(file, dec.decode(files.get(file)!), packageType(file));
  /** ES modules a CommonJS module requires, imported before the script starts (see esmRequiredAhead). */
  const required = new Map<string, Record<string, unknown>>();
  const requireEsm = (file: string): unknown => {
    const namespace = required.get(file);
    if (namespace) return requireResult(namespace);
    throw Object.assign(
      new Error(
        `require() of the ES module ${file}: only an ES module a require names literally is loaded ahead (use import() instead)`,
      ),
      { code: 'ERR_REQUIRE_ESM' },
    );
  };
  const loadCjs = (file: string): unknown => {
    const hit = cache.get(file);
    if (hit) return hit.exports;
    if (/\.(?:c|m)?js$/.test(file) && !runsAsCjs(file)) {
      const exports = requireEsm(file);
      cache.set(file, { exports });
      return exports;
    }
    const text = dec.decode(files.get(file)!);
    if (file.endsWith('.json')) return JSON.parse(text);
    const module = { exports: {} as unknown };
    cache.set(file, module);
    const dir = path.dirname(file);
    compile(['exports', 'require', 'module', '__filename', '__dirname'], text.replace(/^#!.*/, ''), file)(
      module.exports,
      makeRequire(dir, file),
      module,
      file,
      dir,
    );
    return module.exports;
  };
  g.__sandpitRequire = (file: string) => loadCjs(file);
  g.__sandpitBuiltin = builtinOf;
  const urls = new Map<string, string>();
  const esmUrl = (file: string, stack: string[] = []): string => {
    const known = urls.get(file);
    if (known) return known;
    if (stack.includes(file)) throw new Error(`import cycle through ${file} is not supported in the browser shell`);
    let body: string;
    if (runsAsCjs(file)) {
      // Node gives an import of CommonJS its exports by name too; here the module runs now, and its keys are the names.
      const value = loadCjs(file);
      const names =
        value && typeof value === 'object'
          ? Object.keys(value).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default')
          : [];
      body = `const m = globalThis.__sandpitRequire(${JSON.stringify(file)}); export default m;${names.length ? ` export const { ${names.join(', ')} } = m;` : ''}`;
    } else {
      const dir = path.dirname(file);
      const text = dec.decode(files.get(file)!).replace(/^#!.*/, '');
      body =
        esmPrelude(text) +
        text.replace(
          /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g,
          (all, lead: string, q: string, spec: string) => {
            if (builtinOf(spec)) return `${lead}${q}${builtinUrl(spec)}${q}`;
            const target = resolved.get(`${file}\0${spec}`);
            if (target) return `${lead}${q}${esmUrl(target, [...stack, file])}${q}`;
            if (!/^\.{0,2}\//.test(spec)) return all;
            return `${lead}${q}${esmUrl(resolveFile(spec, dir), [...stack, file])}${q}`;
          },
        );
    }
    const url = URL.createObjectURL(new Blob([`${body}\n//# sourceURL=${file}`], { type: 'text/javascript' }));
    urls.set(file, url);
    return url;
  };
  const builtinUrl = (spec: string) => {
    const names = Object.keys(builtinOf(spec) as object).filter((n) => /^[A-Za-z_$][\w$]*$/.test(n) && n !== 'default');
    const src = `const m = globalThis.__sandpitBuiltin(${JSON.stringify(spec)}); export default m; export const { ${names.join(', ')} } = m;`;
    return URL.createObjectURL(new Blob([src], { type: 'text/javascript' }));
  };

  try {
    const entryText = eval_ ? (job.argv[1] ?? '') : files.has(entry) ? dec.decode(files.get(entry)!) : '';
    const entryEsm =
      !eval_ &&
      files.has(entry) &&
      (/\.(?:c|m)?js$/.test(entry)
        ? !runsAsCjs(entry)
        : !entry.endsWith('.cjs') && /^\s*(import\s|import\{|export\s)/m.test(entryText));
    const graph = {
      text: (f: string) => (files.has(f) ? dec.decode(files.get(f)!) : undefined),
      runsAsCjs,
      target: targetOf,
    };
    for (const file of esmRequiredAhead(graph, [{ file: eval_ ? evalFile : entry, text: entryText, cjs: !entryEsm }]))
      required.set(file, (await import(/* @vite-ignore */ esmUrl(file))) as Record<string, unknown>);
    if (eval_) {
      const code = job.argv[1] ?? '';
      if (job.argv[0] === '-p')
        out(
          `${inspect(compile(['require', '__filename', '__dirname'], `return (${code})`)(makeRequire(cwd, evalFile), entry, cwd))}\n`,
        );
      else
        compile(['exports', 'require', 'module', '__filename', '__dirname'], code)(
          {},
          makeRequire(cwd, evalFile),
          { exports: {} },
          entry,
          cwd,
        );
    } else {
      if (!files.has(entry))
        throw Object.assign(new Error(`Cannot find module '${entry}'`), { code: 'MODULE_NOT_FOUND' });
      if (entryEsm) await import(/* @vite-ignore */ esmUrl(entry));
      else loadCjs(entry);
    }
    // Like Node, wait for timers and promise chains to settle before the script ends.
    for (let idle = 0; idle < 2 && !finished; ) {
      await new Promise((r) => realSetTimeout(r, 0));
      idle = pending === 0 && intervals.size === 0 ? idle + 1 : 0;
    }
    done(proc.exitCode ?? 0);
  } catch (e) {
    fail(e);
  }
}
