import { fileURLToPath } from 'node:url';

const shim = (name: string) => fileURLToPath(new URL(`./shims/${name}.ts`, import.meta.url));

/**
 * What the browser build substitutes for the Node built-ins memfs and isomorphic-git load, so
 * no `node:` import reaches a browser bundle. Used by vite.config.ts and vitest.config.ts.
 */
export const browserAliases = [
  { find: /^node:buffer$/, replacement: 'buffer' },
  { find: /^node:events$/, replacement: 'events' },
  { find: /^(node:)?path$/, replacement: 'path-browserify' },
  { find: /^(node:)?stream$/, replacement: shim('node-stream') },
  { find: /^(node:)?url$/, replacement: shim('node-url') },
  { find: /^(node:)?process$/, replacement: shim('node-process') },
];
