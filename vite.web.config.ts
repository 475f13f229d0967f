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
      const rel = posix.relative(posix.dirname(chunk.fileName), WORKER_FILE);
      return code.replaceAll(marker, JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`));
    },
  };
}

/** The worker's file below dist/, where the client's `new URL('./worker.js', import.meta.url)` must lead. */
const WORKER_FILE = 'web/worker.js';

/**
 * The browser bundles below dist/, in one build: `sandpit/web`'s page client (web/index.js), the
 * `browser` export of `sandpit` itself (browser/index.js) and the worker (web/worker.js), their
 * chunks in web/chunks/. What they have in common (createWorkspace, memfs, the shell, git, the
 * tools) is one copy: a page that imports both page entries gets one, and a consumer's bundler
 * parses and minifies the worker's lazy chunks (the shell, git's commands, the backends) once, not
 * once for the page's copy and once for the worker's as when the worker was a build of its own.
 * The cost is esbuild's page first load (esbuild places all of a file's live code where any entry
 * imports that file statically, so what the worker loads from a chunk the page imports at start
 * lands in the page): measured in docs/browser.md, within the guards of bundle-split.test.ts.
 * What an entry loads on first use (git, glob, the shell, the pack writer, the other backends)
 * stays in chunks loaded by dynamic import, so a bundler that splits (webpack, esbuild, Vite with
 * worker.format 'es') loads it only then. The client's `new URL('./worker.js', import.meta.url)`
 * is left for the consumer's bundler to follow. The aliases are applied here, once, so a consumer
 * needs no configuration for the Node built-ins memfs loads. scripts/build-web.mjs empties
 * dist/web and dist/browser first (dist/ itself holds tsc's output).
 */
const entries: Record<string, string> = {
  'web/index': './web/index.ts',
  'browser/index': './src/index.ts',
  [WORKER_FILE.replace(/\.js$/, '')]: './web/worker.ts',
};

export default defineConfig(() => {
  return {
    logLevel: 'warn',
    // Relative asset URLs: the node script worker is found beside worker.js wherever it is served from.
    base: './',
    plugins: [keepWorkerUrl()],
    define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
    resolve: { alias: browserAliases },
    build: {
      outDir: here('./dist'),
      emptyOutDir: false,
      assetsDir: 'web/assets',
      target: 'es2022',
      minify: false,
      sourcemap: false,
      reportCompressedSize: false,
      copyPublicDir: false,
      lib: {
        entry: Object.fromEntries(Object.entries(entries).map(([name, path]) => [name, here(path)])),
        formats: ['es' as const],
        fileName: (_format: string, name: string) => `${name}.js`,
      },
      rollupOptions: { output: { chunkFileNames: 'web/chunks/[name]-[hash].js' } },
    },
  };
});
