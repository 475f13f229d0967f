/**
 * The worker script `connectWorkspace` starts: it hosts one workspace (memory, OPFS or
 * IndexedDB) and answers the page's `call`, `listTools` and change events as plain JSON through
 * comlink. It exports nothing. `connectWorkspace` finds it by itself (bundlers follow its
 * `new URL('./worker.js', import.meta.url)`); to serve the script from elsewhere, resolve this
 * entry to a URL and pass it as the `worker` option.
 * @module sandpit-workspace/web/worker
 */
export {};
