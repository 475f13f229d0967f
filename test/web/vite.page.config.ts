import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { browserAliases } from '../../web/browser-aliases.js';

/** Builds test/web/page (the browser entry, its worker and the benchmark) for Playwright. */
export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  logLevel: 'warn',
  define: { global: 'globalThis' },
  resolve: { alias: browserAliases },
  worker: { format: 'es' },
  build: { target: 'es2022', emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 },
});
