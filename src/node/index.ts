/** The Node entry: everything in the core plus real folders (and later processes and MCP). */
export * from '../index.js';
export { createNodeFs } from '../fs/node.js';
export { openNodeWorkspace } from './open.js';
