/**
 * POSIX path arithmetic for module resolution, in whichever style the caller uses: shell paths
 * (`/src/a.js`) keep their leading slash, root-relative ones (`src/a.js`, '' for the root) stay
 * without. `..` never climbs above the root.
 */

/** The folder of a path ('' or '/' at the top). */
export function dirOf(path: string): string {
  const slash = path.lastIndexOf('/');
  if (slash < 0) return '';
  return slash === 0 ? '/' : path.slice(0, slash);
}

/** Join and normalise, keeping the first part's style (absolute or root-relative). */
export function joinPath(...parts: string[]): string {
  const absolute = parts[0]?.startsWith('/') ?? false;
  const out: string[] = [];
  for (const part of parts.join('/').split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return `${absolute ? '/' : ''}${out.join('/')}`;
}

/** A specifier that names a file by path (`./a`, `../b`, `/c`) rather than a package. */
export function isPathSpecifier(spec: string): boolean {
  return /^(?:\.{1,2}(?:\/|$)|\/)/.test(spec);
}

/** A specifier that names a package (`react`, `@scope/pkg/sub`) rather than a URL or a path. */
export function isBareSpecifier(spec: string): boolean {
  return !isPathSpecifier(spec) && !/^[a-z][a-z0-9+.-]*:/i.test(spec) && spec !== '';
}

/** `@scope/name/sub/path` → { name: '@scope/name', sub: './sub/path' }. */
export function splitPackage(spec: string): { name: string; sub: string } {
  const parts = spec.split('/');
  const size = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(size).join('/');
  return { name: parts.slice(0, size).join('/'), sub: rest ? `./${rest}` : '.' };
}

/** Node's built-in modules, which no package in node_modules provides. */
export const NODE_BUILTINS = new Set(
  (
    'assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain ' +
    'events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl ' +
    'stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib'
  ).split(' '),
);

/** Whether a specifier names a Node built-in (`fs`, `node:fs`, `fs/promises`). */
export function isNodeBuiltin(spec: string): boolean {
  if (spec.startsWith('node:')) return true;
  return NODE_BUILTINS.has(spec.split('/')[0]!);
}
