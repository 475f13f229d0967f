/**
 * A complete third-party backend to copy from: `createMapFs()` keeps the whole tree in one `Map`,
 * is written only against the public API, and passes `runConformance`.
 * @module sandpit-workspace/conformance/example
 */
export * from '../../src/conformance/example.js';
