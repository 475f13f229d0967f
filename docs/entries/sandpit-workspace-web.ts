/**
 * The browser entry for pages: `connectWorkspace` runs a workspace in a Web Worker
 * (`sandpit-workspace/web/worker`, found by your bundler), and the OPFS and IndexedDB backends for direct use.
 * @module sandpit-workspace/web
 */
export * from '../../web/index.js';
