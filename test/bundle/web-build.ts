import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { builtOnce } from '../support/built-once.js';
import { demoBuildCommand } from './demo-build-command.js';

/** The repository root, where package.json's scripts and vite.config.ts live. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Build the demo with the real `build:web` script into `outDir`. Each test file uses its own
 * folder, so files running in parallel never read a bundle another build is rewriting.
 */
export function buildDemo(outDir: string): void {
  const { command, args, options } = demoBuildCommand(outDir);
  const run = spawnSync(command, args, { ...options, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run build:web failed:\n${run.stdout}\n${run.stderr}`);
}

/**
 * The demo page built once for this run, shared read-only by every file that serves it: a
 * build per e2e file cost the suite a build per file. Built on first use, under a lock folder,
 * since files run in parallel workers, unless the e2e project's setup began it already
 * (test/e2e/demo-global-setup.ts); outside the node project's setup, a private build.
 */
export async function sharedDemo(privateDir: string): Promise<string> {
  if (!inject('sharedDemoBuild')) {
    buildDemo(privateDir);
    return privateDir;
  }
  return (await builtOnce('web', async (dir) => buildDemo(dir))).dir;
}

export { filesBelow } from '../support/files-below.js';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Preview {
  url: string;
  /** the live preview's origin (the next port), when it was asked for */
  previewUrl?: string;
  stop(): Promise<void>;
}

/** Two free ports in a row: the playground's preview origin is the port after the playground's. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (port >= 65535) continue;
    const next = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port + 1, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (next) return port;
  }
  throw new Error('no two free ports in a row on 127.0.0.1');
}

/**
 * Serve a built demo with `vite preview` on 127.0.0.1, as `npm start` does, and wait until it
 * answers. With `withPreviewOrigin`, the next port serves the same files as the live preview's
 * origin, as `npm start` does too.
 */
export async function previewDemo(outDir: string, options: { withPreviewOrigin?: boolean } = {}): Promise<Preview> {
  if (options.withPreviewOrigin) {
    const port = await freePortPair();
    const main = await serveBuilt(outDir, port);
    try {
      const previews = await serveBuilt(outDir, port + 1);
      return {
        url: main.url,
        previewUrl: previews.url,
        stop: async () => {
          await Promise.all([main.stop(), previews.stop()]);
        },
      };
    } catch (error) {
      await main.stop();
      throw error;
    }
  }
  return serveBuilt(outDir, await freePort());
}

async function serveBuilt(outDir: string, port: number): Promise<Preview> {
  // Vite's own preview server, started in this process as `npm start` starts it
  // (scripts/serve-playground.mjs): a `vite preview` child per server cost a Node start and a
  // load of Vite each, about 0.6 CPU-seconds, twenty times per e2e run. The config file is the
  // repository's, as for the command; only the folder and the port are given here, as its flags did.
  const { preview } = await import('vite');
  const server = await preview({
    configFile: join(repoRoot, 'vite.config.ts'),
    logLevel: 'silent',
    build: { outDir },
    preview: { host: '127.0.0.1', port, strictPort: true, open: false },
  });
  const url = `http://127.0.0.1:${port}/`;
  let stopped: Promise<void> | undefined;
  const stop = () => (stopped ??= server.close());
  try {
    if (!(await fetch(url)).ok) throw new Error(`vite preview on ${url} did not serve the page`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
