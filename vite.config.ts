import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { browserAliases } from './web/browser-aliases.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * The demo page: `npm run build:web` writes dist-web/, `npm start` builds and serves it on
 * 127.0.0.1. The aliases swap the Node built-ins memfs loads for browser stand-ins, so the
 * bundle has no `node:` imports (test/bundle proves it).
 */
export default defineConfig({
  root: here('./demo'),
  publicDir: here('./public'),
  // Relative asset URLs, so the built page also works from a subfolder or a file server.
  base: './',
  define: { global: 'globalThis' },
  resolve: { alias: browserAliases },
  build: {
    outDir: here('./dist-web'),
    emptyOutDir: true,
    target: 'es2022',
    // The page (CodeMirror and its languages) and the worker (the whole workspace) are ~700 kB each.
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      // The preview origin's bridge page and Service Worker ship beside the playground; the
      // worker needs a fixed name at the root, since its URL is its scope.
      input: {
        main: here('./demo/index.html'),
        'preview-bridge': here('./demo/preview-bridge.html'),
        'preview-sw': here('./demo/preview-sw.ts'),
      },
      output: {
        entryFileNames: (chunk) => (chunk.name === 'preview-sw' ? 'preview-sw.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
