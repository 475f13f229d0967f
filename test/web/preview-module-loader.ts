import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMemoryFs, createWorkspace } from '../../src/index.js';
import { createFileServer } from '../../web/preview/file-server.js';
import { readPreviewEntry } from '../../web/preview/read-file.js';

/** The files of installed packages in this repository's node_modules, by workspace path, for a memory workspace. */
export async function packageFiles(
  names: string[],
  keep = (_path: string) => true,
): Promise<Record<string, Uint8Array>> {
  const out: Record<string, Uint8Array> = {};
  for (const name of names) {
    const dir = join('node_modules', name);
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = relative('.', join(entry.parentPath, entry.name));
      if (path.includes('/node_modules/', dir.length)) continue;
      if (keep(path)) out[path] = new Uint8Array(await readFile(path));
    }
  }
  return out;
}

/** A real memory workspace behind the preview's file server, as the playground wires it. */
export function previewServer(files: Record<string, string | Uint8Array>) {
  const ws = createWorkspace({ fs: createMemoryFs(files), root: '/' });
  const problems: string[] = [];
  const server = createFileServer({
    entry: (rel) => readPreviewEntry(ws, rel),
    root: () => '',
    playgroundOrigin: 'http://127.0.0.1:1',
    prefix: '/preview/s/',
    onProblem: (p) => problems.push(p.message),
  });
  return { ws, server, problems };
}

const IMPORTED = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])((?:\/|\.\.?\/)[^"']+)\2/g;
const absolute = (spec: string, from: string) => {
  const url = new URL(spec, `http://preview.test${from}`);
  return decodeURIComponent(url.pathname) + url.search;
};

/**
 * Load a served module graph in Node as the preview's browser would: every module the server
 * answers (from the entry's URL on, following its root-relative imports) is written to a temp
 * folder under a name of its own URL and imported from there. Returns the entry's namespace.
 */
export async function importServed(
  server: ReturnType<typeof createFileServer>,
  entry: string,
): Promise<{ namespace: Record<string, any>; urls: string[]; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sandpit-preview-graph-'));
  const written = new Map<string, string>();
  const fileOf = (url: string) => `m${written.size}-${url.replace(/[^\w.-]+/g, '_').slice(-80)}.mjs`;
  const visit = async (url: string): Promise<string> => {
    const known = written.get(url);
    if (known) return known;
    const name = fileOf(url);
    written.set(url, name);
    const served = await server.serve(encodeURI(url.replace(/^\//, '')));
    if (served.status !== 200)
      throw new Error(`${url} answered ${served.status}: ${new TextDecoder().decode(served.body)}`);
    const text = new TextDecoder().decode(served.body);
    // A wrapped CommonJS file's own text (after `define(`) is data here, as in the browser: only its head imports.
    const cut = text.includes('\ndefine(') ? text.indexOf('\ndefine(') : text.length;
    let code = text.slice(0, cut);
    const targets = [...code.matchAll(IMPORTED)].map((m) => absolute(m[3]!, url));
    for (const target of targets) await visit(target);
    code = code.replace(
      IMPORTED,
      (_all, lead: string, q: string, target: string) => `${lead}${q}./${written.get(absolute(target, url))}${q}`,
    );
    await writeFile(join(dir, name), code + text.slice(cut));
    return name;
  };
  const file = await visit(entry);
  const namespace = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, any>;
  return {
    namespace,
    urls: [...written.keys()],
    cleanup: () => (process.env.KEEP_GRAPH ? Promise.resolve() : rm(dir, { recursive: true, force: true })),
  };
}
