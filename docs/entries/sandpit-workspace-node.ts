/**
 * The Node entry: everything in `sandpit-workspace` plus real folders, processes, background tasks and
 * manifest tools.
 * @module sandpit-workspace/node
 */
export * from '../../src/node/index.js';
