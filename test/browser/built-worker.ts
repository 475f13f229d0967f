import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { buildDist } from '../cli/build-dist.js';

const distWeb = fileURLToPath(new URL('../../dist/web/', import.meta.url));

/** `vitest run`, not watch mode: the sources do not change during the run. */
export const isRun = (argv: readonly string[] = process.argv) => argv.includes('run') || argv.includes('--run');

/**
 * For `vitest run` of the browser project: the tests' workspace workers run the package's built
 * worker (what `sandpit-workspace/web` ships and the playground serves), not web/worker.ts through
 * Vite's dev server. A dev worker loads its code as a module per source file (about 150 to start),
 * each fetched, compiled and linked anew in every worker, and its warm-up fetches the rest of the
 * product the same way; the build is about twenty chunks. 20 workers, each opening a memory workspace and writing a file:
 * 15.8 CPU-seconds of Chromium and Vite from source, 7.7 built (docs/development.md). The files go as
 * they are on disk, before Vite's transforms: the build is plain browser JavaScript with relative
 * imports, and vitest's rewriting of dynamic imports, which only its own frames can run, would break
 * the worker's own nested worker. Watch mode keeps the source worker, so an edit reaches the next run.
 */
export function serveBuiltWorker(argv: readonly string[] = process.argv): Plugin {
  return {
    name: 'sandpit:serve-built-worker',
    apply: 'serve',
    // Before the pages load: dist/ is built again when a source is newer than the last build (the
    // node projects' global set-up does the same; the two take turns through its lock).
    async configureServer(server) {
      if (!isRun(argv)) return;
      await buildDist();
      server.middlewares.use((req, res, next) => {
        const path = (req.url ?? '').split('?')[0]!;
        if (!path.startsWith('/dist/web/') || !path.endsWith('.js')) return next();
        const file = normalize(join(distWeb, decodeURIComponent(path.slice('/dist/web/'.length))));
        if (!file.startsWith(distWeb.endsWith(sep) ? distWeb : distWeb + sep)) return next();
        readFile(file).then(
          (bytes) => {
            res.setHeader('Content-Type', 'text/javascript');
            res.setHeader('Cache-Control', 'max-age=3600');
            res.end(bytes);
          },
          () => next(),
        );
      });
    },
  };
}
