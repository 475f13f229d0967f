import { posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { browserAliases } from './web/browser-aliases.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Vite would bundle the client's worker into a hashed asset with an absolute URL. The published
 * client must instead point at the sibling dist/web/worker.js, so the literal is hidden from
 * Vite's worker plugin while bundling and put back in the output.
 */
function keepWorkerUrl(): Plugin {
  const literal = "new URL('./worker.js', import.meta.url)";
  const marker = '__SANDPIT_WORKER_URL__';
  return {
    name: 'sandpit-keep-worker-url',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('/web/client.ts')) return null;
      if (!code.includes(literal)) this.error(`web/client.ts no longer contains ${literal}`);
      return code.replace(literal, `new URL(${marker}, import.meta.url)`);
    },
    // The client may land in a chunk (dist/web/chunks/): the URL is the worker's from that chunk.
    renderChunk(code, chunk) {
      if (!code.includes(marker)) return null;
      const rel = posix.relative(posix.dirname(chunk.fileName), 'worker.js');
      return code.replaceAll(marker, JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`));
    },
  };
}

/**
 * The browser bundles, one mode per run. For `sandpit/web` in dist/web: `--mode worker` makes worker.js
 * and chunks/, whose dynamic imports a consumer's bundler keeps as chunks where the worker format
 * allows it (ES-module workers; an iife worker gets them inlined, still working);
 * `--mode client` makes index.js (and chunks/ beside the worker's), whose `new URL('./worker.js', import.meta.url)`
 * is left for the consumer's bundler to follow. `--mode core` makes dist/browser/index.js (and its
 * chunks/, the shell's among them), the `browser` export of `sandpit` itself. The aliases are
 * applied here, once, so a consumer needs no configuration for the Node built-ins memfs loads.
 */
const entries: Record<string, { entry: string; outDir: string; file: string }> = {
  worker: { entry: './web/worker.ts', outDir: './dist/web', file: 'worker.js' },
  client: { entry: './web/index.ts', outDir: './dist/web', file: 'index.js' },
  core: { entry: './src/index.ts', outDir: './dist/browser', file: 'index.js' },
};

export default defineConfig(({ mode }) => {
  const target = entries[mode];
  if (!target) throw new Error(`vite.web.config.ts: unknown mode ${mode} (worker, client or core)`);
  return {
    logLevel: 'warn',
    // Relative asset URLs: the node script worker is found beside worker.js wherever it is served from.
    base: './',
    plugins: mode === 'client' ? [keepWorkerUrl()] : [],
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    resolve: { alias: browserAliases },
    build: {
      outDir: here(target.outDir),
      // client shares dist/web with worker, which is built first and empties it.
      emptyOutDir: mode !== 'client',
      target: 'es2022',
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      lib: {
        entry: here(target.entry),
        formats: ['es' as const],
        fileName: () => target.file,
      },
      rollupOptions: {
        // What the entry loads on first use (git, glob, the shell, the pack writer) stays in chunks/, so a
        // bundler that splits (webpack, esbuild, Vite with worker.format 'es') loads it only then.
        // The client's own dynamic imports (the page runner's shell and its `node`) are chunks too, so the
        // page's first load under webpack and esbuild is what connectWorkspace needs.
        output: { chunkFileNames: 'chunks/[name]-[hash].js' },
      },
    },
  };
});
