/**
 * The contract suite for a new `WorkspaceFs`: `runConformance(makeFs, { test, expect })`
 * under vitest, node:test or any runner with a `test(name, fn)` function.
 * @module sandpit-workspace/conformance
 */
export * from '../../src/conformance/index.js';
