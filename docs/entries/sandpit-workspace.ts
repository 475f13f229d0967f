/**
 * The browser-safe core: `createWorkspace`, the memory backend, the tool contract and its errors.
 * No `node:` import and no WebAssembly reach this entry.
 * @module sandpit-workspace
 */
export * from '../../src/index.js';
