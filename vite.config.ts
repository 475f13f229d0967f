import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { browserAliases } from './web/browser-aliases.js';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * sucrase keeps, as text, a helper that imports Node's `module` for an option (creating
 * `require` in ES modules) that the preview never sets. The text is inert, but a bundle that
 * names a Node built-in is what test/bundle forbids, so the name is replaced where it is kept.
 */
function dropSucraseNodeHelper(): Plugin {
  return {
    name: 'sandpit-drop-sucrase-node-helper',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').endsWith('/sucrase/dist/esm/HelperManager.js')) return null;
      if (!code.includes('from "module"'))
        this.error('sucrase HelperManager.js no longer holds its `module` helper; check dropSucraseNodeHelper');
      return code.replace('from "module"', 'from "(unused in the browser: injectCreateRequireForImportRequire)"');
    },
  };
}

/**
 * `vite preview` (what `npm start` serves) answers every file `no-cache`, so each page load and
 * each new worker asked again for every module it imports, one conditional request each, and a
 * backend switch's spare worker asked for some twenty. The files under assets/ are named by a hash
 * of their content (a new build gives new names), so the browser may keep them for good.
 */
function keepHashedAssets(): Plugin {
  const hashed = /^\/assets\/[^/?#]+-[A-Za-z0-9_-]{8}\.[a-z0-9]+(?:[?#]|$)/;
  return {
    name: 'sandpit-keep-hashed-assets',
    configurePreviewServer(server) {
      // Before Vite's own file server, which keeps a Cache-Control already set on the answer.
      server.middlewares.use((req, res, next) => {
        if (req.url && hashed.test(req.url)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        next();
      });
    },
  };
}

/**
 * `vite preview` gzips every answer of a compressible type as it sends it, anew for each request:
 * the playground's 3 MB of JavaScript for every new visitor, and the browser then inflates it. The
 * playground is served on 127.0.0.1 (`npm start`), where nothing is gained by a smaller transfer,
 * so the files go as they are. Vite's compression follows the request's Accept-Encoding only;
 * the request is otherwise unchanged, and every byte served the same.
 */
function serveUncompressed(): Plugin {
  return {
    name: 'sandpit-serve-uncompressed',
    configurePreviewServer(server) {
      // Before Vite's own compression, which is the first middleware after these hooks.
      server.middlewares.use((req, _res, next) => {
        delete req.headers['accept-encoding'];
        next();
      });
    },
  };
}

/**
 * The preview origin's bridge page registers the Service Worker, the first step of every first
 * preview. Built as a page that links a module script, it fetched that script (and Vite's
 * modulepreload polyfill, which it imports) before it could register: a round trip of 60-400 ms
 * on a busy two-core machine. Its script imports nothing else at run time, so it goes into the
 * page itself, and the page asks for nothing before it registers.
 */
function inlineBridgeScript(): Plugin {
  return {
    name: 'sandpit-inline-bridge-script',
    apply: 'build',
    // After Vite's HTML plugin has written the page with its script tag.
    enforce: 'post',
    generateBundle(_options, bundle) {
      const page = bundle['preview-bridge.html'];
      const script = Object.values(bundle).find(
        (file) => file.type === 'chunk' && file.isEntry && file.name === 'preview-bridge',
      );
      if (page?.type !== 'asset' || script?.type !== 'chunk') return;
      let code = script.code;
      for (const imported of script.imports) {
        const name = imported.slice(imported.lastIndexOf('/') + 1);
        if (!name.startsWith('modulepreload-polyfill-'))
          this.error(
            `the preview bridge's script imports ${imported}; inlineBridgeScript keeps only self-contained code`,
          );
        code = code.replace(`import"./${name}";`, '');
      }
      if (/\bimport\s*["'{*(]|<\/script/i.test(code))
        this.error("the preview bridge's script still imports or closes a script tag; check inlineBridgeScript");
      const tag = `<script type="module" crossorigin src="./${script.fileName}"></script>`;
      const html = String(page.source);
      if (!html.includes(tag))
        this.error(`the preview bridge page no longer links ${script.fileName}; check inlineBridgeScript`);
      page.source = html
        .replace(tag, `<script type="module">${code.trim()}</script>`)
        .replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
      delete bundle[script.fileName];
    },
  };
}

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
  plugins: [dropSucraseNodeHelper(), keepHashedAssets(), serveUncompressed(), inlineBridgeScript()],
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
  // ES-module workers can split: the shell, the backends and git's verbs then load on first use.
  // The preview's file server (and sucrase with it) runs in the workspace worker too.
  worker: { format: 'es', plugins: () => [dropSucraseNodeHelper()] },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 5173, strictPort: true },
});
