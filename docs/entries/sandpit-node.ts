/**
 * The Node entry: everything in `sandpit` plus real folders, processes, background tasks and
 * manifest tools.
 * @module sandpit/node
 */
export * from '../../src/node/index.js';
