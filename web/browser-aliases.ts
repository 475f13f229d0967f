import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const shim = (name: string, ext = 'ts') => fileURLToPath(new URL(`./shims/${name}.${ext}`, import.meta.url));

/**
 * cjs-module-lexer's `import` condition leads to its WebAssembly build; every build (and the test
 * runs, which load the preview's wrapper in Node too) takes its pure-JavaScript `lexer.js` instead.
 */
export const lexerAlias = {
  find: /^cjs-module-lexer$/,
  replacement: createRequire(import.meta.url).resolve('cjs-module-lexer'),
};

/**
 * What the browser build substitutes for the Node built-ins memfs and isomorphic-git load, so
 * no `node:` import reaches a browser bundle, and for library parts a browser never runs (an old
 * engine's to-buffer polyfills, pako's deflate, memfs's snapshots and tree printer). Used by every
 * browser build and vitest's browser project.
 */
export const browserAliases = [
  { find: /^node:buffer$/, replacement: 'buffer' },
  { find: /^node:events$/, replacement: 'events' },
  { find: /^(node:)?path$/, replacement: 'path-browserify' },
  { find: /^(node:)?stream$/, replacement: shim('node-stream') },
  { find: /^(node:)?url$/, replacement: shim('node-url') },
  { find: /^(node:)?process$/, replacement: shim('node-process') },
  { find: /^to-buffer$/, replacement: shim('to-buffer', 'cjs') },
  { find: /^pako$/, replacement: shim('pako') },
  { find: /^@jsonjoy\.com\/fs-(snapshot|print)$/, replacement: shim('memfs-unused', 'cjs') },
  lexerAlias,
];
