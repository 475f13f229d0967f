import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { builtOnce, type Built } from '../support/built-once.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** Build the test page with the real Vite build into `outDir`. */
export async function buildPage(outDir: string): Promise<void> {
  await build({ configFile: fileURLToPath(new URL('./vite.page.config.ts', import.meta.url)), build: { outDir } });
}

/**
 * The test page built once for the run and shared read-only: the files that serve it or read its
 * bundle (persistence, quota, bundle) each paid a Vite build of the same sources.
 */
export function sharedPage(): Promise<Built> {
  return builtOnce('web-test-page', buildPage);
}

export interface PageServer {
  url: string;
  /** The paths asked for so far (the page's and its workers' requests), in the built folder's terms: `main.js`. */
  requested: string[];
  stop(): Promise<void>;
}

/** Serve a built folder on 127.0.0.1 (a secure context, so OPFS and Web Locks are there). */
export async function servePage(dir: string): Promise<PageServer> {
  const requested: string[] = [];
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(
      /^(\.\.[/\\])+/,
      '',
    );
    requested.push(path.replace(/^\//, ''));
    try {
      const body = await readFile(join(dir, path.endsWith('/') ? `${path}index.html` : path));
      res.writeHead(200, { 'content-type': TYPES[extname(path) || '.html'] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/`,
    requested,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export { filesBelow } from '../support/files-below.js';
